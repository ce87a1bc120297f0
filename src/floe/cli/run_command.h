#pragma once

// `floe run FILE.sql [--warehouse DIR] [--checkpoint-dir DIR]`: runs a SQL script the way a
// pipeline runs in production. Statements run in order (a syntax error anywhere stops the script
// before anything runs; a failing statement stops it there, naming its line and column). Its
// streaming INSERTs keep running after the script's end, until their sources end or the process
// gets SIGINT or SIGTERM, which cancels them; the exit code then is 0 unless a job failed. Jobs
// get stable names (pipeline.name, else insert-into_<table>) and checkpoint under
// <checkpoint-dir>/<job name>/, so running the same script again resumes each INSERT from its
// latest checkpoint: the sink commits only checkpointed rows, so nothing is lost or written twice.

#include <cstdio>
#include <string>

namespace CLI {
class App;
}

namespace floe::cli {

struct RunArgs {
  std::string file;
  std::string warehouse = "warehouse";         // the embedded catalog's folder
  std::string checkpoint_dir = "checkpoints";  // unless the script SETs state.checkpoints.dir
};

int RunScript(const RunArgs& args, std::FILE* out, std::FILE* err);
void AddRunCommand(CLI::App& app, int& exit_code);

}  // namespace floe::cli
