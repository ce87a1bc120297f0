#pragma once

// Internal to the Parquet writer: the hash tables that give each distinct value of a column chunk
// its dictionary index, in first-seen order. Open addressing with linear probing over a
// power-of-two table kept at most half full; the owner bounds their size (dict-size-bytes), so
// they never fail.

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace floe::parquet {

// Values of 4 or 8 bytes, keyed by their bits (so -0.0 and 0.0, and NaNs, stay distinct).
template <typename Bits>
class FixedDictionaryTable {
 public:
  // The value's index; inserted tells whether it is new.
  uint32_t Insert(Bits key, bool& inserted) {
    if (2 * (size_ + 1) > slots_.size()) Grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = Hash(key) & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.index_plus_one == 0) {
        slot = {key, static_cast<uint32_t>(++size_)};
        inserted = true;
        return static_cast<uint32_t>(size_ - 1);
      }
      if (slot.key == key) {
        inserted = false;
        return slot.index_plus_one - 1;
      }
    }
  }
  size_t size() const { return size_; }
  void Clear() {
    slots_.clear();
    size_ = 0;
  }

 private:
  struct Slot {
    Bits key;
    uint32_t index_plus_one;  // 0: empty
  };
  static size_t Hash(Bits key) {
    // Fibonacci hashing; the high bits are the well-mixed ones.
    uint64_t h = static_cast<uint64_t>(key) * 0x9E3779B97F4A7C15ULL;
    return static_cast<size_t>(h ^ (h >> 29) ^ (h >> 47));
  }
  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{0, 0});
    size_t mask = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.index_plus_one == 0) continue;
      size_t i = Hash(slot.key) & mask;
      while (slots_[i].index_plus_one != 0) i = (i + 1) & mask;
      slots_[i] = slot;
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

// Byte strings, kept in one arena. Insert is inline: low-cardinality columns call it once per
// value.
class BytesDictionaryTable {
 public:
  uint32_t Insert(std::string_view value, bool& inserted) {
    if (2 * (size() + 1) > slots_.size()) Grow();
    const uint64_t hash = Hash(value);
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.index_plus_one == 0) {
        inserted = true;
        return Add(slot, hash, value);
      }
      if (slot.hash == hash && Equal(slot.index_plus_one - 1, value)) {
        inserted = false;
        return slot.index_plus_one - 1;
      }
    }
  }
  size_t size() const { return ends_.size(); }
  std::string_view value(size_t i) const {
    size_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(data_).substr(begin, ends_[i] - begin);
  }
  void Clear();

  // Values up to 16 bytes are read as two possibly overlapping words (which with the length cover
  // every byte) and mixed with multiplications: several times cheaper than a general hash.
  static uint64_t Hash(std::string_view value) {
    const size_t n = value.size();
    if (n > 16) return HashLong(value);
    uint64_t a, b;
    ShortWords(value.data(), n, a, b);
    uint64_t h = (a ^ 0x9E3779B97F4A7C15ULL) * 0xBF58476D1CE4E5B9ULL;
    h ^= std::rotl((b + n) * 0x94D049BB133111EBULL, 31);
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 32);
  }

 private:
  struct Slot {
    uint64_t hash;
    uint32_t index_plus_one;  // 0: empty
  };

  static void ShortWords(const char* p, size_t n, uint64_t& a, uint64_t& b) {
    a = b = 0;
    if (n >= 8) {
      std::memcpy(&a, p, 8);
      std::memcpy(&b, p + n - 8, 8);
    } else if (n >= 4) {
      std::memcpy(&a, p, 4);
      std::memcpy(&b, p + n - 4, 4);
    } else if (n > 0) {
      a = static_cast<uint8_t>(p[0]) | static_cast<uint64_t>(static_cast<uint8_t>(p[n / 2])) << 8 |
          static_cast<uint64_t>(static_cast<uint8_t>(p[n - 1])) << 16;
    }
  }

  bool Equal(size_t i, std::string_view value) const {
    size_t begin = i == 0 ? 0 : ends_[i - 1];
    if (ends_[i] - begin != value.size()) return false;
    if (value.size() > 16)
      return std::memcmp(data_.data() + begin, value.data(), value.size()) == 0;
    uint64_t a1, b1, a2, b2;
    ShortWords(data_.data() + begin, value.size(), a1, b1);
    ShortWords(value.data(), value.size(), a2, b2);
    return a1 == a2 && b1 == b2;
  }

  static uint64_t HashLong(std::string_view value);
  uint32_t Add(Slot& slot, uint64_t hash, std::string_view value);
  void Grow();

  std::vector<Slot> slots_;
  std::string data_;
  std::vector<size_t> ends_;
};

}  // namespace floe::parquet
