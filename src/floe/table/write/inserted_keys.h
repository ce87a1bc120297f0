#pragma once

// Where each key a delta writer inserted since its last commit was written: key bytes (row_key.h)
// -> (data file index, row position). One open-addressing table of fixed-size slots with the key
// bytes in one arena, so that a lookup is one hash and usually one probe, and forgetting every key
// at a commit frees three buffers instead of one node per key. Removed keys leave tombstones; their
// bytes are reclaimed when the table is rebuilt on growth.
//
// Memory: 32 bytes per slot (at most 3/4 of the slots in use) plus the key bytes; the caller
// bounds the number of keys by committing. Movable, not copyable.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace floe::table {

class InsertedKeys {
 public:
  struct Location {
    uint32_t file = 0;
    int64_t position = 0;
  };

  // The hash the other calls take (computed by the caller once per key).
  static uint64_t Hash(std::string_view key);
  // Stores `location` for `key`; returns the location it replaces, or nullopt for a new key.
  std::optional<Location> Put(std::string_view key, uint64_t hash, Location location);
  // Forgets `key`; returns its location, or nullopt when it was not there.
  std::optional<Location> Remove(std::string_view key, uint64_t hash);
  // A hint that `hash` is looked up soon: a table of millions of keys is far larger than the
  // caches, so a lookup is a cache miss unless it was prefetched a few rows ahead.
  void Prefetch(uint64_t hash) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash & (slots_.size() - 1)]);
  }

  size_t size() const { return size_; }
  size_t memory_bytes() const { return slots_.size() * sizeof(Slot) + arena_.capacity(); }

 private:
  static constexpr uint64_t kEmpty = 0;
  static constexpr uint64_t kTombstone = 1;
  struct Slot {
    uint64_t hash = kEmpty;  // kEmpty, kTombstone, or the key's hash (never below 2)
    uint64_t key_offset = 0;
    uint32_t key_size = 0;
    uint32_t file = 0;
    int64_t position = 0;
  };

  std::string_view KeyOf(const Slot& slot) const {
    return std::string_view(arena_).substr(slot.key_offset, slot.key_size);
  }
  // The slot holding `key`, or nullptr.
  Slot* Find(std::string_view key, uint64_t hash);
  // Rebuilds the table with room for at least `live` keys at a load of 1/2, dropping tombstones
  // and the bytes of removed keys.
  void Rebuild(size_t live);

  // Zeroed slots (a zero hash is kEmpty). Large tables are mapped in huge pages where the system
  // allows it: their lookups are random, and with 4 KiB pages each one would also miss the TLB.
  class SlotArray {
   public:
    SlotArray() = default;
    explicit SlotArray(size_t count);
    SlotArray(SlotArray&& other) noexcept
        : slots_(std::exchange(other.slots_, nullptr)),
          size_(std::exchange(other.size_, 0)),
          mapped_bytes_(std::exchange(other.mapped_bytes_, 0)) {}
    SlotArray& operator=(SlotArray&& other) noexcept;
    ~SlotArray();

    Slot& operator[](size_t i) { return slots_[i]; }
    const Slot& operator[](size_t i) const { return slots_[i]; }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Slot* begin() { return slots_; }
    Slot* end() { return slots_ + size_; }

   private:
    void Free();
    Slot* slots_ = nullptr;
    size_t size_ = 0;
    size_t mapped_bytes_ = 0;  // 0: allocated with calloc
  };

  SlotArray slots_;  // a power of two in size, or empty
  std::string arena_;
  size_t size_ = 0;
  size_t tombstones_ = 0;
};

}  // namespace floe::table
