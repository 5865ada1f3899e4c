//! Versioned, checksummed, atomically written model files.
