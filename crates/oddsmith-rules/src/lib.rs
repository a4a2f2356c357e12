//! oddsmith-rules
