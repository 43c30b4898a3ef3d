//! The catalog's notes about reading an agent's transcript (SPEC section 11), English
//! and Japanese: one line each, printed by the hooks that record a session.

use super::catalog::Entry;

const fn e(key: &'static str, en: &'static str, ja: &'static str) -> Entry {
    Entry { key, en, ja }
}

#[rustfmt::skip]
pub(super) const TRANSCRIPTS: &[Entry] = &[
    e("transcript.missing", "the agent's transcript is not there: nothing was read from it", "エージェントのトランスクリプトがありません。何も読んでいません"),
    e("transcript.not_regular", "the agent's transcript is not a regular file (a FIFO, a directory or a device): not read", "エージェントのトランスクリプトが通常のファイルではありません（FIFO、ディレクトリ、デバイス）。読んでいません"),
    e("transcript.symlink", "the agent's transcript is a link to no regular file: not read", "エージェントのトランスクリプトが通常のファイルを指さないリンクです。読んでいません"),
    e("transcript.truncated", "only the last {read} of the agent's {total} transcript were read", "エージェントのトランスクリプト {total} のうち最後の {read} だけを読みました"),
    e("transcript.not_utf8", "lines of the agent's transcript that are not UTF-8 were skipped", "エージェントのトランスクリプトの UTF-8 でない行を飛ばしました"),
    e("transcript.io", "the agent's transcript could not be read: {why}", "エージェントのトランスクリプトを読めませんでした: {why}"),
    e("transcript.other_format", "the agent's transcript is not in its format: nothing was taken from it", "エージェントのトランスクリプトがその形式ではありません。何も取り出していません"),
];
