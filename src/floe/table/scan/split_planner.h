#pragma once

// Split planning (the reference implementation's TableScanUtil): whole-file tasks are cut into
// byte ranges, then packed into combined tasks of about a target size so that readers get even
// work. A range's weight is its length plus the sizes of its delete files, but at least the open
// file cost, so many small files do not pile into one task. Packing keeps up to `lookback` bins
// open, adds each range to the first open bin it fits, and when none fits closes the fullest
// (the oldest of equals) — close to first-fit while bounding memory for streams of tasks.

#include <cstdint>
#include <vector>

#include "floe/table/scan/file_scan_task.h"

namespace floe::table {

// Cuts a task at its data file's split_offsets (row group starts) when they are valid (sorted,
// inside the file, starting at 0 or above), else every target_size bytes; files no larger than
// target_size, and files whose format cannot be split (Avro without offsets, Puffin), stay whole.
void SplitTask(const FileScanTask& task, int64_t target_size, std::vector<FileScanTask>& out);

// Packs ranges into combined tasks, in order of first use; the ranges keep their order inside a
// combined task. target_size, open_file_cost and lookback must be positive.
std::vector<CombinedScanTask> PackTasks(std::vector<FileScanTask> tasks, int64_t target_size,
                                        int64_t open_file_cost, int lookback);

}  // namespace floe::table
