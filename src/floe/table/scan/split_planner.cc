#include "floe/table/scan/split_planner.h"

#include <algorithm>
#include <deque>

namespace floe::table {
namespace {

bool ValidOffsets(const std::vector<int64_t>& offsets, int64_t file_size) {
  if (offsets.empty()) return false;
  int64_t previous = -1;
  for (int64_t offset : offsets) {
    if (offset <= previous || offset < 0 || offset >= file_size) return false;
    previous = offset;
  }
  return true;
}

FileScanTask Range(const FileScanTask& task, int64_t start, int64_t length) {
  FileScanTask range = task;
  range.start = start;
  range.length = length;
  return range;
}

int64_t Weight(const FileScanTask& task, int64_t open_file_cost) {
  int64_t weight = task.length;
  for (const DataFilePtr& file : task.deletes) weight += file->file_size_in_bytes;
  return std::max(weight, open_file_cost);
}

}  // namespace

void SplitTask(const FileScanTask& task, int64_t target_size, std::vector<FileScanTask>& out) {
  const manifest::DataFile& file = *task.data_file;
  int64_t size = file.file_size_in_bytes;
  if (size <= target_size || !task.whole_file()) {
    out.push_back(task);
    return;
  }
  if (ValidOffsets(file.split_offsets, size)) {
    // Adjacent row groups are merged up to the target size, as Iceberg does, so that tiny row
    // groups do not each become a task. The first range starts at 0 (before the first row
    // group's offset, which is past the file's magic bytes).
    std::vector<int64_t> bounds(file.split_offsets.begin(), file.split_offsets.end());
    bounds.front() = 0;
    bounds.push_back(size);
    size_t b = 0;
    while (b + 1 < bounds.size()) {
      size_t e = b + 1;
      while (e + 1 < bounds.size() && bounds[e + 1] - bounds[b] <= target_size) ++e;
      out.push_back(Range(task, bounds[b], bounds[e] - bounds[b]));
      b = e;
    }
    return;
  }
  if (!manifest::HasFileFormat(file, "parquet") && !manifest::HasFileFormat(file, "orc")) {
    out.push_back(task);
    return;
  }
  for (int64_t start = 0; start < size; start += target_size) {
    out.push_back(Range(task, start, std::min(target_size, size - start)));
  }
}

std::vector<CombinedScanTask> PackTasks(std::vector<FileScanTask> tasks, int64_t target_size,
                                        int64_t open_file_cost, int lookback) {
  struct Bin {
    CombinedScanTask combined;
    int64_t weight = 0;
  };
  std::vector<CombinedScanTask> out;
  std::deque<Bin> open;
  auto close_fullest = [&] {
    auto fullest = open.begin();
    for (auto it = open.begin(); it != open.end(); ++it) {
      if (it->weight > fullest->weight) fullest = it;
    }
    out.push_back(std::move(fullest->combined));
    open.erase(fullest);
  };
  for (FileScanTask& task : tasks) {
    int64_t weight = Weight(task, open_file_cost);
    auto bin = std::find_if(open.begin(), open.end(),
                            [&](const Bin& b) { return b.weight + weight <= target_size; });
    if (bin == open.end()) {
      if (open.size() >= static_cast<size_t>(lookback)) close_fullest();
      open.emplace_back();
      bin = std::prev(open.end());
    }
    bin->weight += weight;
    bin->combined.tasks.push_back(std::move(task));
  }
  while (!open.empty()) {
    out.push_back(std::move(open.front().combined));
    open.pop_front();
  }
  return out;
}

}  // namespace floe::table
