#pragma once

// What the examples' tests share: running an example binary (from the build tree) and reading a
// table back through the table layer's scan, independently of the examples' own code.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "floe/batch/value.h"
#include "floe/stream/iceberg/table_loader.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/scan/task_reader.h"
#include "floe/table/table.h"

extern char** environ;

namespace floe::examples::test {

inline std::string ExamplePath(const std::string& name) {
  return std::string(FLOE_EXAMPLES_DIR) + "/" + name;
}

// Starts an example with its arguments, its stdout going to `out` (a file) or /dev/null.
inline pid_t Spawn(const std::string& name, const std::vector<std::string>& args,
                   const std::string& out = "/dev/null") {
  std::string path = ExamplePath(name);
  std::vector<char*> argv{path.data()};
  std::vector<std::string> copies = args;
  for (std::string& arg : copies) argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  int error = posix_spawn(&pid, path.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  EXPECT_EQ(error, 0) << path;
  return error == 0 ? pid : -1;
}

// The exit code, or -signal when a signal ended it.
inline int Wait(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1000;
  if (WIFSIGNALED(status)) return -WTERMSIG(status);
  return WEXITSTATUS(status);
}

struct Ran {
  int exit_code = 0;
  std::vector<std::string> lines;  // stdout
};

// Runs an example to its end.
inline Ran RunExample(const std::string& name, const std::vector<std::string>& args,
                      const std::string& scratch) {
  std::string out = scratch + "/" + name + ".out";
  Ran run;
  run.exit_code = Wait(Spawn(name, args, out));
  FILE* file = std::fopen(out.c_str(), "r");
  if (file == nullptr) return run;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, file)) {
    std::string line(buffer);
    if (!line.empty() && line.back() == '\n') line.pop_back();
    run.lines.push_back(line);
  }
  std::fclose(file);
  return run;
}

// Every live row of the table as its column values joined by '|', sorted.
inline std::vector<std::string> TableRows(const stream::TableLoader& loader) {
  std::vector<std::string> rows;
  auto table = loader.Load();
  EXPECT_TRUE(table.has_value()) << loader.ToString();
  if (!table) return rows;
  table::TableScan scan((*table)->metadata(), (*table)->io());
  auto tasks = scan.PlanTasks();
  EXPECT_TRUE(tasks.has_value()) << tasks.error().ToString();
  if (!tasks) return rows;
  table::TaskReader reader((*table)->io(), scan.schema().value(), scan.ProjectedSchema().value());
  for (const auto& group : *tasks) {
    auto read = reader.Read(group, [&](RecordBatch batch) -> Status {
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        std::string row;
        for (int c = 0; c < batch.num_columns(); ++c) {
          Value value = RowView(batch, i).Get(c);
          if (c > 0) row += "|";
          if (value.is_null()) {
            row += "null";
          } else if (value.is<int64_t>()) {
            row += std::to_string(value.get<int64_t>());
          } else {
            row += value.get<std::string>();
          }
        }
        rows.push_back(std::move(row));
      }
      return {};
    });
    EXPECT_TRUE(read.has_value()) << read.error().ToString();
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

inline std::vector<std::string> TableRows(const std::string& folder) {
  return TableRows(stream::TableLoader::FromFolder(folder));
}

inline std::vector<std::string> Sorted(std::vector<std::string> lines) {
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace floe::examples::test
