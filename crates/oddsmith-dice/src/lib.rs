//! oddsmith-dice
