//! Arrays on disk: the folder (what is committed), schemas, fragments and
//! array metadata.

pub mod directory;
pub mod field;
pub mod fragment;
mod meta_file;
pub mod metadata;
pub mod name;
pub mod schema;

pub use directory::ArrayDirectory;
pub use field::{DataFile, FieldInfo, FieldPipelines};
pub use fragment::Fragment;

#[cfg(test)]
mod model_tests;
