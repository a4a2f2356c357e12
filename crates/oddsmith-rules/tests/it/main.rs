//! Integration tests of the rulesets through their public contract only.

mod marks;
mod props;
