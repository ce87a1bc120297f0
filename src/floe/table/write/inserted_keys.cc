#include "floe/table/write/inserted_keys.h"

#include <sys/mman.h>

#include <bit>
#include <cstdlib>
#include <new>

#include "floe/util/xxhash64.h"

namespace floe::table {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;

}  // namespace

InsertedKeys::SlotArray::SlotArray(size_t count) : size_(count) {
  const size_t bytes = count * sizeof(Slot);
  if (bytes >= kHugePage) {
    const size_t mapped = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* memory =
        mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory != MAP_FAILED) {
      // A hint only: without transparent huge pages the mapping works with small pages.
      (void)madvise(memory, mapped, MADV_HUGEPAGE);
      slots_ = static_cast<Slot*>(memory);
      mapped_bytes_ = mapped;
      return;
    }
  }
  slots_ = static_cast<Slot*>(std::calloc(count, sizeof(Slot)));
  if (slots_ == nullptr) throw std::bad_alloc();
}

InsertedKeys::SlotArray& InsertedKeys::SlotArray::operator=(SlotArray&& other) noexcept {
  if (this != &other) {
    Free();
    slots_ = std::exchange(other.slots_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapped_bytes_ = std::exchange(other.mapped_bytes_, 0);
  }
  return *this;
}

InsertedKeys::SlotArray::~SlotArray() { Free(); }

void InsertedKeys::SlotArray::Free() {
  if (slots_ == nullptr) return;
  if (mapped_bytes_ > 0) {
    munmap(slots_, mapped_bytes_);
  } else {
    std::free(slots_);
  }
  slots_ = nullptr;
  size_ = 0;
}

uint64_t InsertedKeys::Hash(std::string_view key) {
  uint64_t hash = XxHash64(key);
  return hash < 2 ? hash + 2 : hash;
}

InsertedKeys::Slot* InsertedKeys::Find(std::string_view key, uint64_t hash) {
  if (slots_.empty()) return nullptr;
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    Slot& slot = slots_[i];
    if (slot.hash == kEmpty) return nullptr;
    if (slot.hash == hash && KeyOf(slot) == key) return &slot;
  }
}

std::optional<InsertedKeys::Location> InsertedKeys::Put(std::string_view key, uint64_t hash,
                                                        Location location) {
  if (Slot* slot = Find(key, hash)) {
    Location previous{slot->file, slot->position};
    slot->file = location.file;
    slot->position = location.position;
    return previous;
  }
  // Keep at least a quarter of the slots empty so that probes stay short and always end.
  if ((size_ + tombstones_ + 1) * 4 > slots_.size() * 3) Rebuild(size_ + 1);
  const size_t mask = slots_.size() - 1;
  size_t i = hash & mask;
  while (slots_[i].hash > kTombstone) i = (i + 1) & mask;
  if (slots_[i].hash == kTombstone) --tombstones_;
  slots_[i] = Slot{.hash = hash,
                   .key_offset = arena_.size(),
                   .key_size = static_cast<uint32_t>(key.size()),
                   .file = location.file,
                   .position = location.position};
  arena_.append(key);
  ++size_;
  return std::nullopt;
}

std::optional<InsertedKeys::Location> InsertedKeys::Remove(std::string_view key, uint64_t hash) {
  Slot* slot = Find(key, hash);
  if (slot == nullptr) return std::nullopt;
  Location previous{slot->file, slot->position};
  slot->hash = kTombstone;
  --size_;
  ++tombstones_;
  return previous;
}

void InsertedKeys::Rebuild(size_t live) {
  const size_t capacity = std::bit_ceil(std::max<size_t>(16, live * 2));
  SlotArray old = std::move(slots_);
  std::string old_arena = std::move(arena_);
  slots_ = SlotArray(capacity);
  arena_.clear();
  arena_.reserve(old_arena.size());
  tombstones_ = 0;
  const size_t mask = capacity - 1;
  for (const Slot& slot : old) {
    if (slot.hash <= kTombstone) continue;
    size_t i = slot.hash & mask;
    while (slots_[i].hash != kEmpty) i = (i + 1) & mask;
    slots_[i] = slot;
    slots_[i].key_offset = arena_.size();
    arena_.append(old_arena, slot.key_offset, slot.key_size);
  }
}

}  // namespace floe::table
