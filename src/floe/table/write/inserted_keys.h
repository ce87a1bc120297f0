#pragma once

// Where each key a delta writer inserted since its last commit was written: key bytes (row_key.h)
// -> (data file index, row position). One open-addressing table of fixed-size slots with the key
// bytes in one arena, so that a lookup is one hash and usually one probe, and forgetting every key
// at a commit frees three buffers instead of one node per key. Removed keys leave tombstones; their
// bytes are reclaimed when the table is rebuilt on growth.
//
// Memory: 32 bytes per slot (at most 3/4 of the slots in use) plus the key bytes; the caller
// bounds the number of keys by committing.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

  size_t size() const { return size_; }
  size_t memory_bytes() const { return slots_.capacity() * sizeof(Slot) + arena_.capacity(); }

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

  std::vector<Slot> slots_;  // a power of two in size, or empty
  std::string arena_;
  size_t size_ = 0;
  size_t tombstones_ = 0;
};

}  // namespace floe::table
