// git-handover for OpenCode: the briefing at the start of each session, the reminder
// before a compaction, and the session-end hook when a session goes idle, all through
// the same `git-handover hook …` commands the other agents run.
//
// Install it for the user: copy this file to ~/.config/opencode/plugin/ (it then
// briefs only in repositories that opted in: a project-scope git-handover hook, or
// `git config handover.hook true`); or commit it into a project's .opencode/plugin/,
// which is that project's opt-in, like a project-scope hook.
//
// OpenCode loads JavaScript and TypeScript plugins from those directories
// (https://opencode.ai/docs/plugins, "From local files"); a plugin is an async
// function given { directory, worktree, $ } that returns hooks. The hooks used here
// are typed in npm @opencode-ai/plugin (dist/index.d.ts):
// "experimental.chat.system.transform" (output.system: string[]),
// "experimental.session.compacting" (output.context: string[]) and `event`.
// `git-handover` must be on OpenCode's PATH; without it the plugin does nothing.

import { fileURLToPath } from "node:url";

export const GitHandover = async ({ directory, worktree, $ }) => {
  const here = fileURLToPath(import.meta.url);
  const root = worktree || directory;
  // Committed into the project: the project's own hook. Anywhere else: the user's.
  const scope = root && here.startsWith(root + "/") ? [] : ["--scope", "user"];
  const briefed = new Set();

  // Run `git-handover hook <verb> --agent claude` with the event on stdin and read the
  // JSON it prints (Claude Code's shape: the budget and the words are the same).
  const hook = async (verb, sessionID, extra) => {
    const event = JSON.stringify({
      session_id: sessionID || "",
      cwd: directory,
      hook_event_name: verb,
      ...extra,
    });
    try {
      const out = await $`git-handover hook ${verb} --agent claude ${scope} < ${new Response(event)}`
        .cwd(directory)
        .quiet()
        .nothrow()
        .text();
      return out.trim() ? JSON.parse(out) : null;
    } catch {
      return null;
    }
  };

  return {
    "experimental.chat.system.transform": async (input, output) => {
      const id = input?.sessionID || "";
      if (briefed.has(id)) {
        return;
      }
      briefed.add(id);
      const out = await hook("session-start", id, { source: "startup" });
      const context = out?.hookSpecificOutput?.additionalContext;
      if (context) {
        output.system.push(context);
      }
    },
    "experimental.session.compacting": async (input, output) => {
      const out = await hook("pre-compact", input?.sessionID);
      if (out?.systemMessage) {
        output.context.push(out.systemMessage);
      }
      // After the compaction the session is briefed again, as a `compact` start.
      briefed.delete(input?.sessionID || "");
    },
    event: async ({ event }) => {
      if (event?.type === "session.idle") {
        await hook("session-end", event.properties?.sessionID);
      }
    },
  };
};
