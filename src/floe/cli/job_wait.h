#pragma once

// The end of a `floe sql` session: the jobs it started are not cut short, since they live in
// this process and would die with it. Every bounded job (all its sources end by themselves) runs
// to its end; unbounded streaming jobs keep the process alive, with a line naming them, until
// SIGINT or SIGTERM, which drains them: each stops reading and makes its final commit. Then one
// line per job the statements left running says how it ended and what it committed.
//
// A signal while bounded jobs still run cancels them (nothing of theirs is committed) and the
// exit code says so: the client never exits 0 with rows a job was told to commit left
// uncommitted.

#include <cstdio>
#include <string>
#include <vector>

namespace floe::sql {
class Session;
}

namespace floe::cli {

// Waits for the session's jobs as above and prints one line for each of `reported` (the job ids
// the statements left running) on out, and each failed or cancelled job on err. Returns
// kExitFailure when a job failed or was cancelled, else kExitOk.
int FinishJobs(sql::Session& session, const std::vector<std::string>& reported, std::FILE* out,
               std::FILE* err);

}  // namespace floe::cli
