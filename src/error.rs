//! The error type every layer returns; its kind picks the Python exception the glue raises.

use std::fmt;

/// Which Python exception an error becomes: its number is the status a C call returns
/// (`MojoStatus` in csrc/mojo.h).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Runtime = 1,
    Panic = 2,
    OutOfMemory = 3,
    NotImplemented = 4,
    Index = 5,
    Value = 6,
    Type = 7,
}

/// An error with the exception kind it maps to and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
}

/// Result with the crate's error type.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// A plain RuntimeError.
    pub fn runtime(message: impl Into<String>) -> Self {
        Error {
            kind: ErrorKind::Runtime,
            message: message.into(),
        }
    }
    /// A torch.OutOfMemoryError.
    pub fn out_of_memory(message: impl Into<String>) -> Self {
        Error {
            kind: ErrorKind::OutOfMemory,
            message: message.into(),
        }
    }
    /// A NotImplementedError.
    pub fn not_implemented(message: impl Into<String>) -> Self {
        Error {
            kind: ErrorKind::NotImplemented,
            message: message.into(),
        }
    }
    /// An IndexError.
    pub fn index(message: impl Into<String>) -> Self {
        Error {
            kind: ErrorKind::Index,
            message: message.into(),
        }
    }
    /// A ValueError.
    pub fn value(message: impl Into<String>) -> Self {
        Error {
            kind: ErrorKind::Value,
            message: message.into(),
        }
    }
    /// A TypeError.
    pub fn type_error(message: impl Into<String>) -> Self {
        Error {
            kind: ErrorKind::Type,
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
