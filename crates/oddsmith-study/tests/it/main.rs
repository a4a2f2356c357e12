//! Study tests.
