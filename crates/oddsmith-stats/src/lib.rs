//! oddsmith-stats
