#pragma once

// A hash set of 64-bit integer keys, open addressing with linear probing in one flat array: the
// equality-delete set of a single integer-like key column (int, long, date, time, timestamps)
// without a string per key. Grows at half full, so a probe touches one or two cache lines.

#include <cstdint>
#include <vector>

namespace floe::table {

class IntKeySet {
 public:
  void Insert(int64_t key) {
    if (key == kEmpty) {
      has_empty_key_ = true;
      return;
    }
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    size_t i = Slot(key);
    while (slots_[i] != kEmpty) {
      if (slots_[i] == key) return;
      i = (i + 1) & mask_;
    }
    slots_[i] = key;
    ++size_;
  }

  bool Contains(int64_t key) const {
    if (key == kEmpty) return has_empty_key_;
    if (size_ == 0) return false;
    size_t i = Slot(key);
    while (slots_[i] != kEmpty) {
      if (slots_[i] == key) return true;
      i = (i + 1) & mask_;
    }
    return false;
  }

  size_t size() const { return size_ + (has_empty_key_ ? 1 : 0); }
  size_t memory_bytes() const { return slots_.capacity() * sizeof(int64_t); }

 private:
  // A key no slot holds when free; the key itself is kept aside.
  static constexpr int64_t kEmpty = INT64_MIN;

  size_t Slot(int64_t key) const {
    uint64_t h = static_cast<uint64_t>(key) * 0x9E3779B97F4A7C15ULL;
    return static_cast<size_t>(h ^ (h >> 29)) & mask_;
  }

  void Grow() {
    std::vector<int64_t> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, kEmpty);
    mask_ = slots_.size() - 1;
    size_ = 0;
    for (int64_t key : old) {
      if (key != kEmpty) Insert(key);
    }
  }

  std::vector<int64_t> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
  bool has_empty_key_ = false;
};

}  // namespace floe::table
