//! Messages, hints and exit statuses.
use super::*;

#[test]
fn messages_are_one_lowercase_line() {
    let err = Error::io(
        "/x/y",
        "read",
        std::io::Error::new(std::io::ErrorKind::NotFound, "No such file"),
    );
    assert_eq!(err.to_string(), "cannot read /x/y: no such file");
    let err = Error::git(msg(crate::k!("git.walk"), &[]), "Object\n  abc missing");
    assert_eq!(err.to_string(), "cannot walk history: object abc missing");
}

#[test]
fn exit_codes_follow_the_spec() {
    assert_eq!(Error::NotARepository { dir: "/".into() }.exit_code(), 128);
    let bad = Error::InvalidField {
        file: "f".into(),
        field: "active_tasks[2].status".into(),
        message: "must be a string".into(),
    };
    assert_eq!(bad.exit_code(), 3);
    assert_eq!(
        bad.to_string(),
        "invalid handover f: field `active_tasks[2].status` must be a string"
    );
}
