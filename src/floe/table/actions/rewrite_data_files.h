#pragma once

// Compaction by bin-packing (the Flink connector's "rewrite files action", Spark's
// rewrite_data_files with the binpack strategy): data files smaller than the target size are
// grouped per partition (and spec) and each group with enough input is read back, with its delete
// files applied, and written again into files of about the target size, in the same spec, format
// and partition. One RewriteFiles commit replaces the groups, validated against the snapshot the
// plan started from; new files keep that snapshot's data sequence number, so equality deletes
// committed later still apply to them. Delete files that only applied to rewritten files are
// removed in the same commit.
//
//   FLOE_ASSIGN_OR_RETURN(auto options, RewriteDataFilesOptions::Parse({{"min-input-files",
//   "2"}})); FLOE_ASSIGN_OR_RETURN(RewriteDataFilesResult result, RewriteDataFiles(table,
//   options));
//
// What can go wrong: unknown or malformed options (kInvalidArgument naming the option); a
// concurrent commit that adds deletes for files being rewritten: the plan is retried from the new
// snapshot up to `max-commit-retries` times, then kCommitFailed; the files written by a failed
// attempt are deleted. Committed data is never lost: the old files stay live until the commit.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "floe/expr/expression.h"
#include "floe/table/table.h"
#include "floe/util/error.h"

namespace floe::table {

struct RewriteDataFilesOptions {
  // target-file-size-bytes; unset: the table's write.target-file-size-bytes (512 MiB).
  std::optional<int64_t> target_file_size;
  // min-file-size-bytes / max-file-size-bytes: files outside [min, max] are rewritten; unset:
  // 75% and 180% of the target.
  std::optional<int64_t> min_file_size;
  std::optional<int64_t> max_file_size;
  // min-input-files: a group of fewer files is rewritten only when it holds more than the target
  // size, a file that is too large, or a file with delete-file-threshold deletes.
  int min_input_files = 5;
  // delete-file-threshold: a file with at least this many delete files is rewritten whatever its
  // size.
  int delete_file_threshold = INT32_MAX;
  // rewrite-all: every file of every group, regardless of size or count.
  bool rewrite_all = false;
  // max-file-group-size-bytes: a partition holding more candidate bytes is split into groups.
  int64_t max_file_group_size = int64_t{100} << 30;
  // max-commit-retries: plans retried after a conflicting commit.
  int max_commit_retries = 3;
  // Only files that may hold rows matching this (unbound); nullptr: all.
  expr::ExprPtr filter;

  // From Spark's option names; unknown names are kInvalidArgument listing the known ones.
  static Result<RewriteDataFilesOptions> Parse(const std::map<std::string, std::string>& options);
};

struct RewriteDataFilesResult {
  int64_t rewritten_data_files = 0;
  int64_t added_data_files = 0;
  int64_t rewritten_bytes = 0;
  int64_t failed_data_files = 0;
  int64_t removed_delete_files = 0;
  // The commit's snapshot; unset when there was nothing to rewrite.
  std::optional<int64_t> snapshot_id;
};

Result<RewriteDataFilesResult> RewriteDataFiles(Table& table,
                                                const RewriteDataFilesOptions& options);

}  // namespace floe::table
