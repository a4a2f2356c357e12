//! Report tests.
