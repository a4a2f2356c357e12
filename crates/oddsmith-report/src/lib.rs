//! oddsmith-report
