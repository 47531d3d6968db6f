//! What `spec/` cannot say: the per-dimension sizes derived from a domain,
//! which the MBR-shaped tables import.

use crate::{rt, Domain};

impl Domain {
    /// Coordinate size of each dimension (0 for var-sized), for the tables
    /// that import [`rt::Dims`].
    pub fn coord_sizes(&self) -> rt::Dims {
        self.dimensions
            .iter()
            .map(|d| {
                if d.cell_val_num == Some(crate::VAR_NUM) {
                    0
                } else {
                    let datatype = d.datatype.or(self.domain_datatype);
                    datatype.map_or(0, rt::datatype_size)
                }
            })
            .collect()
    }
}
