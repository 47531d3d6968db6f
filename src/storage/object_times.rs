//! The modification times of an object store's objects, for the age rule
//! of `maintain::abandoned` applied to a local copy of an array.

use std::path::Path;

use crate::error::{Error, Result};

impl super::object::ObjectStorage {
    /// Every object below `path` with the time it was last modified, as
    /// the store lists them (one LIST, not cached): a local copy of an
    /// array given these times tells abandoned work by its age as the
    /// store does (`maintain::abandoned`).
    pub fn modified_below(
        &self,
        path: &Path,
    ) -> Result<Vec<(std::path::PathBuf, std::time::SystemTime)>> {
        use futures::TryStreamExt;
        let key = self.key(path)?;
        let prefix = object_store::path::Path::parse(&key)
            .map_err(|e| Error::io(path, std::io::Error::other(e.to_string())))?;
        let metas: Vec<object_store::ObjectMeta> = self
            .block_on(async { self.store.list(Some(&prefix)).try_collect().await })
            .map_err(|e| Error::io(path, std::io::Error::other(e.to_string())))?;
        Ok(metas
            .into_iter()
            .map(|m| {
                let p = self.path_of(m.location.as_ref());
                (p, std::time::SystemTime::from(m.last_modified))
            })
            .collect())
    }
}
