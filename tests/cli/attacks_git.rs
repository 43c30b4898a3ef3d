//! The second round of attacks (issue 31) on the git room: each test tries to break one
//! promise and failed before its fix. docs/SECURITY.md lists them.
