#include "floe/table/actions/rewrite_data_files.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "floe/table/scan/table_scan.h"
#include "floe/table/scan/task_reader.h"
#include "floe/table/update/rewrite_files.h"
#include "floe/table/write/data_file_writer.h"
#include "floe/table/write/table_write_setup.h"
#include "floe/util/thread_pool.h"

namespace floe::table {
namespace {

constexpr std::array<std::string_view, 8> kOptionNames{
    "target-file-size-bytes", "min-file-size-bytes",       "max-file-size-bytes",
    "min-input-files",        "delete-file-threshold",     "rewrite-all",
    "max-commit-retries",     "max-file-group-size-bytes",
};

Result<int64_t> ParseCount(std::string_view key, std::string_view text, int64_t min) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min) {
    return InvalidArgument("option '{}': '{}' is not an integer >= {}", key, text, min);
  }
  return value;
}

// Candidate files of one partition, packed into groups of at most max_group bytes.
struct Group {
  PartitionSpecPtr spec;
  std::vector<Literal> partition;
  std::vector<const FileScanTask*> tasks;
  int64_t bytes = 0;
};

struct Limits {
  int64_t target = 0;
  int64_t min_size = 0;
  int64_t max_size = 0;
};

bool ShouldRewrite(const Group& group, const RewriteDataFilesOptions& options,
                   const Limits& limits) {
  if (options.rewrite_all) return true;
  const auto count = static_cast<int64_t>(group.tasks.size());
  const bool enough_files = count > 1 && count >= options.min_input_files;
  const bool enough_content = count > 1 && group.bytes > limits.target;
  const bool too_much_content = group.bytes > options.max_file_group_size;
  const bool special = std::ranges::any_of(group.tasks, [&](const FileScanTask* task) {
    return task->data_file->file_size_in_bytes > limits.max_size ||
           static_cast<int64_t>(task->deletes.size()) >= options.delete_file_threshold;
  });
  return enough_files || enough_content || too_much_content || special;
}

std::vector<Group> PlanGroups(const std::vector<FileScanTask>& tasks,
                              const std::unordered_set<std::string>* selected,
                              const RewriteDataFilesOptions& options, const Limits& limits) {
  std::map<std::string, std::vector<const FileScanTask*>> by_partition;
  for (const FileScanTask& task : tasks) {
    const manifest::DataFile& file = *task.data_file;
    if (selected && !selected->contains(file.file_path)) continue;
    const bool candidate =
        options.rewrite_all || file.file_size_in_bytes < limits.min_size ||
        file.file_size_in_bytes > limits.max_size ||
        static_cast<int64_t>(task.deletes.size()) >= options.delete_file_threshold;
    if (candidate)
      by_partition[manifest::PartitionKey(file.spec_id, file.partition)].push_back(&task);
  }
  std::vector<Group> out;
  for (auto& [key, files] : by_partition) {
    // Largest first, each into the first group it fits (first-fit decreasing).
    std::ranges::stable_sort(files, std::greater<>(), [](const FileScanTask* task) {
      return task->data_file->file_size_in_bytes;
    });
    std::vector<Group> groups;
    for (const FileScanTask* task : files) {
      const int64_t size = task->data_file->file_size_in_bytes;
      auto fits = std::ranges::find_if(
          groups, [&](const Group& g) { return g.bytes + size <= options.max_file_group_size; });
      if (fits == groups.end()) {
        groups.push_back(Group{.spec = task->spec, .partition = task->data_file->partition});
        fits = groups.end() - 1;
      }
      fits->tasks.push_back(task);
      fits->bytes += size;
    }
    for (Group& group : groups) {
      if (ShouldRewrite(group, options, limits)) out.push_back(std::move(group));
    }
  }
  return out;
}

// Reads a group's rows (deletes applied, no filter: whole files are replaced) and writes them
// into new files of the group's spec and partition.
Result<std::vector<manifest::DataFile>> RewriteGroup(const Group& group, Table& table,
                                                     const SchemaPtr& schema,
                                                     const TableWriteSetup& setup,
                                                     std::vector<std::string>& written) {
  TaskReader reader(table.io(), schema, schema);
  WriterContext context = setup.Context(group.spec);
  DataFileWriter writer(context.DataOptions(group.partition), std::nullopt);
  Status status = Ok();
  for (const FileScanTask* planned : group.tasks) {
    FileScanTask task = *planned;
    task.residual = expr::True();
    status = reader.Read(task, [&](RecordBatch batch) -> Status {
      FLOE_ASSIGN_OR_RETURN(RecordBatch rows, RecordBatch::Make(setup.batch_schema(),
                                                                batch.columns(), batch.num_rows()));
      return writer.Write(rows);
    });
    if (!status) break;
  }
  Result<std::vector<manifest::DataFile>> files =
      status ? writer.Close()
             : Result<std::vector<manifest::DataFile>>(std::unexpected(status.error()));
  written = writer.files().written_locations();
  FLOE_RETURN_IF_ERROR(files);
  for (manifest::DataFile& file : *files) file.spec_id = group.spec->spec_id();
  return files;
}

void DeleteWritten(io::FileIO& io, const std::vector<std::string>& paths) {
  // Best effort: these files are referenced by no metadata, so a leftover is only garbage.
  for (const std::string& path : paths) (void)io.Delete(path);
}

// One plan, rewrite and commit from the table's current snapshot. kCommitFailed when a
// conflicting commit landed (the caller retries).
Result<RewriteDataFilesResult> Attempt(Table& table, const RewriteDataFilesOptions& options) {
  RewriteDataFilesResult result;
  TableMetadataPtr metadata = table.metadata();
  SnapshotPtr start = metadata->current_snapshot();
  if (!start) return result;

  FLOE_ASSIGN_OR_RETURN(auto setup, TableWriteSetup::Make(*metadata, table.io().get()));
  Limits limits;
  limits.target = options.target_file_size.value_or(setup->properties().target_file_size);
  limits.min_size = options.min_file_size.value_or(limits.target * 3 / 4);
  limits.max_size = options.max_file_size.value_or(limits.target * 9 / 5);
  if (limits.min_size > limits.max_size) {
    return InvalidArgument("min-file-size-bytes {} is above max-file-size-bytes {}",
                           limits.min_size, limits.max_size);
  }
  setup->properties().target_file_size = limits.target;

  TableScan scan(metadata, table.io());
  scan.UseSnapshot(start->snapshot_id);
  FLOE_ASSIGN_OR_RETURN(std::vector<FileScanTask> tasks, scan.PlanFiles());
  std::optional<std::unordered_set<std::string>> selected;
  if (options.filter) {
    TableScan filtered(metadata, table.io());
    filtered.UseSnapshot(start->snapshot_id).Filter(options.filter);
    FLOE_ASSIGN_OR_RETURN(std::vector<FileScanTask> matching, filtered.PlanFiles());
    selected.emplace();
    for (const FileScanTask& task : matching) selected->insert(task.data_file->file_path);
  }
  std::vector<Group> groups = PlanGroups(tasks, selected ? &*selected : nullptr, options, limits);
  if (groups.empty()) return result;

  const SchemaPtr schema = metadata->current_schema();
  std::vector<Result<std::vector<manifest::DataFile>>> rewritten(groups.size(),
                                                                 std::vector<manifest::DataFile>{});
  std::vector<std::vector<std::string>> written(groups.size());
  {
    const size_t threads = std::min(ThreadPool::DefaultWorkers(), groups.size());
    ThreadPool pool(threads > 1 ? threads - 1 : 0);
    pool.ParallelFor(groups.size(), [&](size_t i) {
      rewritten[i] = RewriteGroup(groups[i], table, schema, *setup, written[i]);
    });
  }
  auto delete_all_written = [&] {
    for (const auto& paths : written) DeleteWritten(*table.io(), paths);
  };
  for (const auto& files : rewritten) {
    if (!files) {
      delete_all_written();
      return std::unexpected(files.error());
    }
  }

  // Delete files that applied only to rewritten files apply to nothing after the commit.
  std::unordered_set<const FileScanTask*> replaced;
  for (const Group& group : groups) replaced.insert(group.tasks.begin(), group.tasks.end());
  std::unordered_set<std::string> still_used;
  std::map<std::string, DataFilePtr> orphaned;
  for (const FileScanTask& task : tasks) {
    for (const DataFilePtr& del : task.deletes) {
      if (replaced.contains(&task)) {
        orphaned.emplace(del->file_path, del);
      } else {
        still_used.insert(del->file_path);
      }
    }
  }
  std::erase_if(orphaned, [&](const auto& entry) { return still_used.contains(entry.first); });

  std::unique_ptr<RewriteFiles> rewrite = table.NewRewriteFiles();
  for (const FileScanTask* task : replaced) {
    rewrite->DeleteFile(*task->data_file);
    result.rewritten_data_files += 1;
    result.rewritten_bytes += task->data_file->file_size_in_bytes;
  }
  for (const auto& [path, del] : orphaned) rewrite->DeleteFile(*del);
  result.removed_delete_files = static_cast<int64_t>(orphaned.size());
  for (auto& files : rewritten) {
    for (manifest::DataFile& file : *files) {
      rewrite->AddFile(std::move(file));
      result.added_data_files += 1;
    }
  }
  if (metadata->format_version() >= 2) rewrite->DataSequenceNumber(start->sequence_number);
  rewrite->ValidateFromSnapshot(start->snapshot_id);
  Status committed = rewrite->Commit();
  if (!committed) {
    // With an unknown outcome the new files may be live: keep them.
    if (committed.error().kind() != ErrorKind::kCommitStateUnknown) delete_all_written();
    return std::unexpected(committed.error());
  }
  result.snapshot_id = rewrite->snapshot_id();
  return result;
}

}  // namespace

Result<RewriteDataFilesOptions> RewriteDataFilesOptions::Parse(
    const std::map<std::string, std::string>& options) {
  RewriteDataFilesOptions out;
  for (const auto& [key, value] : options) {
    if (key == "target-file-size-bytes") {
      FLOE_ASSIGN_OR_RETURN(out.target_file_size, ParseCount(key, value, 1));
    } else if (key == "min-file-size-bytes") {
      FLOE_ASSIGN_OR_RETURN(out.min_file_size, ParseCount(key, value, 0));
    } else if (key == "max-file-size-bytes") {
      FLOE_ASSIGN_OR_RETURN(out.max_file_size, ParseCount(key, value, 1));
    } else if (key == "min-input-files") {
      FLOE_ASSIGN_OR_RETURN(int64_t n, ParseCount(key, value, 1));
      out.min_input_files = static_cast<int>(std::min<int64_t>(n, INT32_MAX));
    } else if (key == "delete-file-threshold") {
      FLOE_ASSIGN_OR_RETURN(int64_t n, ParseCount(key, value, 1));
      out.delete_file_threshold = static_cast<int>(std::min<int64_t>(n, INT32_MAX));
    } else if (key == "max-commit-retries") {
      FLOE_ASSIGN_OR_RETURN(int64_t n, ParseCount(key, value, 0));
      out.max_commit_retries = static_cast<int>(std::min<int64_t>(n, 100));
    } else if (key == "max-file-group-size-bytes") {
      FLOE_ASSIGN_OR_RETURN(out.max_file_group_size, ParseCount(key, value, 1));
    } else if (key == "rewrite-all") {
      if (value != "true" && value != "false") {
        return InvalidArgument("option 'rewrite-all': '{}' is not true or false", value);
      }
      out.rewrite_all = value == "true";
    } else {
      std::string known;
      for (std::string_view name : kOptionNames) {
        known += (known.empty() ? "" : ", ") + std::string(name);
      }
      return InvalidArgument("unknown rewrite_data_files option '{}'; known: {}", key, known);
    }
  }
  return out;
}

Result<RewriteDataFilesResult> RewriteDataFiles(Table& table,
                                                const RewriteDataFilesOptions& options) {
  for (int attempt = 0;; ++attempt) {
    Result<RewriteDataFilesResult> result = Attempt(table, options);
    if (result || result.error().kind() != ErrorKind::kCommitFailed ||
        attempt >= options.max_commit_retries) {
      return result;
    }
    FLOE_RETURN_IF_ERROR(table.Refresh());
  }
}

}  // namespace floe::table
