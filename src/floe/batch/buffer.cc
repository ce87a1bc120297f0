#include "floe/batch/buffer.h"

#include <algorithm>
#include <bit>
#include <new>
#include <utility>

namespace floe {
namespace {

int64_t RoundUpToAlignment(int64_t n) {
  return (n + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
}

uint8_t* AllocateAligned(int64_t size) {
  return static_cast<uint8_t*>(
      ::operator new (static_cast<size_t>(size), std::align_val_t{kBufferAlignment}));
}

void FreeAligned(uint8_t* data) { ::operator delete (data, std::align_val_t{kBufferAlignment}); }

// Shares an aligned allocation; size 0 still allocates one block so that data() is never null.
Buffer AdoptAligned(uint8_t* data, int64_t size) {
  std::shared_ptr<const void> owner(
      data, [](const void* p) { FreeAligned(static_cast<uint8_t*>(const_cast<void*>(p))); });
  return Buffer(std::move(owner), data, size);
}

}  // namespace

Buffer Buffer::Zeroed(int64_t size) {
  int64_t capacity = std::max<int64_t>(RoundUpToAlignment(size), kBufferAlignment);
  uint8_t* data = AllocateAligned(capacity);
  std::memset(data, 0, static_cast<size_t>(capacity));
  return AdoptAligned(data, size);
}

Buffer Buffer::CopyOf(const void* bytes, int64_t size) {
  int64_t capacity = std::max<int64_t>(RoundUpToAlignment(size), kBufferAlignment);
  uint8_t* data = AllocateAligned(capacity);
  if (size > 0) std::memcpy(data, bytes, static_cast<size_t>(size));
  std::memset(data + size, 0, static_cast<size_t>(capacity - size));
  return AdoptAligned(data, size);
}

BufferBuilder::~BufferBuilder() {
  if (data_) FreeAligned(data_);
}

BufferBuilder::BufferBuilder(BufferBuilder&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)) {}

BufferBuilder& BufferBuilder::operator=(BufferBuilder&& other) noexcept {
  if (this != &other) {
    if (data_) FreeAligned(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
  }
  return *this;
}

void BufferBuilder::Grow(int64_t min_capacity) {
  int64_t capacity = RoundUpToAlignment(std::max({min_capacity, capacity_ * 2, kBufferAlignment}));
  uint8_t* data = AllocateAligned(capacity);
  if (size_ > 0) std::memcpy(data, data_, static_cast<size_t>(size_));
  if (data_) FreeAligned(data_);
  data_ = data;
  capacity_ = capacity;
}

void BufferBuilder::Resize(int64_t new_size) {
  if (new_size > size_) {
    Reserve(new_size - size_);
    std::memset(data_ + size_, 0, static_cast<size_t>(new_size - size_));
  }
  size_ = new_size;
}

void BufferBuilder::AppendZeros(int64_t n) { Resize(size_ + n); }

Buffer BufferBuilder::Finish() {
  if (!data_) Grow(kBufferAlignment);
  std::memset(data_ + size_, 0, static_cast<size_t>(capacity_ - size_));
  Buffer buffer = AdoptAligned(data_, size_);
  data_ = nullptr;
  size_ = 0;
  capacity_ = 0;
  return buffer;
}

void BufferBuilder::Reset() {
  if (data_) FreeAligned(data_);
  data_ = nullptr;
  size_ = 0;
  capacity_ = 0;
}

Buffer BitmapBuilder::Finish() {
  bytes_.Resize(bit_util::BytesForBits(length_));
  length_ = 0;
  return bytes_.Finish();
}

namespace bit_util {

int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length) {
  int64_t count = 0;
  int64_t i = offset;
  int64_t end = offset + length;
  for (; i < end && (i & 7) != 0; ++i) count += GetBit(bits, i);
  // Whole words in the middle; memcpy keeps unaligned loads defined.
  for (; i + 64 <= end; i += 64) {
    uint64_t word;
    std::memcpy(&word, bits + (i >> 3), sizeof(word));
    count += std::popcount(word);
  }
  for (; i + 8 <= end; i += 8) count += std::popcount(static_cast<unsigned>(bits[i >> 3]));
  for (; i < end; ++i) count += GetBit(bits, i);
  return count;
}

void SetBitsTo(uint8_t* bits, int64_t offset, int64_t length, bool value) {
  int64_t i = offset;
  int64_t end = offset + length;
  for (; i < end && (i & 7) != 0; ++i) SetBitTo(bits, i, value);
  int64_t whole_bytes = (end - i) >> 3;
  if (whole_bytes > 0) {
    std::memset(bits + (i >> 3), value ? 0xff : 0, static_cast<size_t>(whole_bytes));
    i += whole_bytes * 8;
  }
  for (; i < end; ++i) SetBitTo(bits, i, value);
}

void CopyBits(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst,
              int64_t dst_offset) {
  if ((src_offset & 7) == 0 && (dst_offset & 7) == 0) {
    int64_t whole_bytes = length >> 3;
    if (whole_bytes > 0) {
      std::memcpy(dst + (dst_offset >> 3), src + (src_offset >> 3),
                  static_cast<size_t>(whole_bytes));
    }
    for (int64_t i = whole_bytes * 8; i < length; ++i) {
      SetBitTo(dst, dst_offset + i, GetBit(src, src_offset + i));
    }
    return;
  }
  for (int64_t i = 0; i < length; ++i) SetBitTo(dst, dst_offset + i, GetBit(src, src_offset + i));
}

}  // namespace bit_util
}  // namespace floe
