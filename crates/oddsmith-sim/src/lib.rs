//! oddsmith-sim
