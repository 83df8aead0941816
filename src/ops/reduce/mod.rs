//! Reductions, scans and sorts, and their launches.

pub mod complex_reduce;
mod inner_first;
pub mod norms_and_scans;
pub mod reduce_launch;
pub mod reductions;
pub mod scan_launch;
pub mod sort;
pub mod sort_launch;
pub mod top_launch;
