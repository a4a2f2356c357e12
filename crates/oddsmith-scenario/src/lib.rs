//! oddsmith-scenario
