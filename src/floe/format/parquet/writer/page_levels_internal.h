#pragma once

// Internal to the Parquet writer: the definition and repetition levels of the open page, and their
// RLE/bit-packed encoding. Until a null or a nested entry comes, every entry of the page is at the
// maximum definition level: the definition levels are then not kept, only counted, and written as
// one run.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace floe::parquet {

class PageLevels {
 public:
  PageLevels(int16_t max_def, int16_t max_rep) : max_def_(max_def), max_rep_(max_rep) {}

  // Keeps the definition levels from now on, the page's `entries` so far at the maximum.
  void MaterializeDefs(int64_t entries) {
    if (!defs_lazy_) return;
    defs_.assign(static_cast<size_t>(entries), max_def_);
    defs_lazy_ = false;
  }
  void AddDef(int16_t def) { defs_.push_back(def); }
  // n entries at the maximum definition level, when definition levels are kept.
  void AddMaxDefs(size_t n) {
    if (!defs_lazy_) defs_.insert(defs_.end(), n, max_def_);
  }
  void AddRep(int16_t rep) { reps_.push_back(rep); }

  // The bytes the levels of a page of `entries` take, about.
  int64_t EstimatedBytes(int64_t entries) const {
    int64_t defs = defs_lazy_ && max_def_ > 0 ? entries : static_cast<int64_t>(defs_.size());
    return (defs + static_cast<int64_t>(reps_.size())) / 4;
  }
  // Room for `entries` levels.
  void Reserve(size_t entries) {
    if (!defs_lazy_) defs_.reserve(entries);
    if (!reps_.empty()) reps_.reserve(entries);
  }

  // Append the levels (v1: each behind its 4-byte length); return the bytes added.
  size_t AppendRepetition(bool length_prefix, std::vector<std::byte>& out) const;
  size_t AppendDefinition(int64_t entries, bool length_prefix, std::vector<std::byte>& out) const;

  // For the next page.
  void Clear() {
    defs_.clear();
    defs_lazy_ = true;
    reps_.clear();
  }

 private:
  int16_t max_def_, max_rep_;
  std::vector<int16_t> defs_, reps_;
  bool defs_lazy_ = true;  // defs_ not kept: every entry so far is at max_def_
};

}  // namespace floe::parquet
