#pragma once

// The hash index behind the aggregate's group table and DISTINCT sets: it maps 64-bit hashes to
// dense entry ids (0, 1, 2... in insertion order) and leaves the keys to the caller, who stores
// them column by column and compares them by id. Open addressing with linear probing in a
// power-of-two table kept at most half full; a slot is 8 bytes (id and 32 bits of the hash, so
// that most mismatches are seen without touching the key). Erase shifts the following slots back
// instead of leaving tombstones, so lookups stay short in streaming jobs that drop groups. An
// erased id is never handed out again: the owner compacts by rebuilding.
//
// Ids are 32-bit; kMaxEntries bounds the table so that callers can report the limit as an error
// instead of wrapping.

#include <algorithm>
#include <cstdint>
#include <vector>

namespace floe::sql::exec {

// Mixers for keys packed into integers (murmur3's finalizer: every input bit reaches every
// output bit).
inline uint64_t MixBits(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

inline uint64_t MixBits128(unsigned __int128 x) {
  return MixBits(static_cast<uint64_t>(x) ^ MixBits(static_cast<uint64_t>(x >> 64) + 0x9e37));
}

class HashIndex {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr uint32_t kMaxEntries = UINT32_MAX / 2;

  // Live entries.
  uint32_t size() const { return live_; }
  // The id the next insertion gets (also the number of ids handed out so far).
  uint32_t next_id() const { return static_cast<uint32_t>(hashes_.size()); }
  uint64_t hash(uint32_t id) const { return hashes_[id]; }

  // The id of the live entry with `hash` for which equal(id) holds, or kNone.
  template <typename Equal>
  uint32_t Find(uint64_t hash, Equal&& equal) const {
    if (slots_.empty()) return kNone;
    auto tag = static_cast<uint32_t>(hash >> 32);
    for (uint64_t i = hash & mask_;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.id == kNone) return kNone;
      if (slot.tag == tag && equal(slot.id)) return slot.id;
    }
  }

  // Find, inserting a new entry (id next_id()) when none matches; `inserted` says which. The
  // caller checks next_id() < kMaxEntries first.
  template <typename Equal>
  uint32_t FindOrInsert(uint64_t hash, Equal&& equal, bool& inserted) {
    if ((static_cast<uint64_t>(live_) + 1) * 2 > slots_.size()) Grow();
    auto tag = static_cast<uint32_t>(hash >> 32);
    uint64_t i = hash & mask_;
    for (;; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (slot.id == kNone) break;
      if (slot.tag == tag && equal(slot.id)) {
        inserted = false;
        return slot.id;
      }
    }
    inserted = true;
    auto id = static_cast<uint32_t>(hashes_.size());
    slots_[i] = Slot{.tag = tag, .id = id};
    hashes_.push_back(hash);
    ++live_;
    return id;
  }

  // Removes live entry `id`.
  void Erase(uint32_t id) {
    uint64_t i = hashes_[id] & mask_;
    while (slots_[i].id != id) i = (i + 1) & mask_;
    // Backward shift: move up every later slot of the cluster whose home is not between the hole
    // and itself, so that every entry stays reachable from its home slot.
    for (uint64_t j = (i + 1) & mask_; slots_[j].id != kNone; j = (j + 1) & mask_) {
      uint64_t home = hashes_[slots_[j].id] & mask_;
      if (((j - home) & mask_) >= ((j - i) & mask_)) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i] = Slot{};
    --live_;
  }

  void Clear() {
    slots_.clear();
    hashes_.clear();
    mask_ = 0;
    live_ = 0;
  }

 private:
  struct Slot {
    uint32_t tag = 0;
    uint32_t id = kNone;
  };

  void Grow() {
    size_t capacity = std::max<size_t>(16, slots_.size() * 2);
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    for (const Slot& slot : old) {
      if (slot.id == kNone) continue;
      uint64_t i = hashes_[slot.id] & mask_;
      while (slots_[i].id != kNone) i = (i + 1) & mask_;
      slots_[i] = slot;
    }
  }

  std::vector<Slot> slots_;
  std::vector<uint64_t> hashes_;  // by id
  uint64_t mask_ = 0;
  uint32_t live_ = 0;
};

}  // namespace floe::sql::exec
