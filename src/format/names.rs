//! The random part of the names the engine gives fragments, schemas,
//! metadata and enumeration files (format_spec/timestamped_name.md).

/// 32 lowercase hex digits, as the engine's `random_label`.
pub fn random_label() -> String {
    format!("{:032x}", rand::random::<u128>())
}
