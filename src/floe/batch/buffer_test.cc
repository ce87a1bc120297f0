#include "floe/batch/buffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace floe {
namespace {

TEST(BufferTest, AllocationsAreAlignedAndPadded) {
  Buffer zeroed = Buffer::Zeroed(3);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(zeroed.data()) % 64, 0u);
  EXPECT_EQ(zeroed.size(), 3);
  Buffer copy = Buffer::CopyOf("hello");
  EXPECT_EQ(reinterpret_cast<uintptr_t>(copy.data()) % 64, 0u);
  EXPECT_EQ(std::string_view(copy.data_as<char>(), 5), "hello");
  // Padding up to 64 bytes is readable and zero.
  for (int i = 5; i < 64; ++i) EXPECT_EQ(copy.data()[i], 0) << i;
}

TEST(BufferTest, SlicesShareStorageAndKeepItAlive) {
  Buffer slice;
  {
    Buffer whole = Buffer::CopyOf("abcdefgh");
    slice = whole.Slice(2, 3);
    EXPECT_EQ(slice.data(), whole.data() + 2);
    EXPECT_EQ(whole.owner().use_count(), 2);
  }
  EXPECT_EQ(std::string_view(slice.data_as<char>(), slice.size()), "cde");
  EXPECT_EQ(slice.owner().use_count(), 1);
}

TEST(BufferBuilderTest, GrowsByDoublingAndFinishHandsOver) {
  BufferBuilder builder;
  builder.Append<int64_t>(1);
  int64_t first_capacity = builder.capacity();
  EXPECT_EQ(first_capacity, 64);
  for (int i = 0; i < 8; ++i) builder.Append<int64_t>(i);
  EXPECT_EQ(builder.capacity(), 128);
  EXPECT_EQ(builder.size(), 72);
  const uint8_t* data = builder.data();
  Buffer buffer = builder.Finish();
  EXPECT_EQ(buffer.data(), data);  // no copy
  EXPECT_EQ(buffer.size(), 72);
  EXPECT_EQ(buffer.data_as<int64_t>()[8], 7);
  EXPECT_EQ(builder.size(), 0);
  EXPECT_EQ(builder.capacity(), 0);
}

TEST(BitUtilTest, LsbOrder) {
  uint8_t bits[2] = {0, 0};
  bit_util::SetBit(bits, 0);
  bit_util::SetBit(bits, 9);
  EXPECT_EQ(bits[0], 0x01);
  EXPECT_EQ(bits[1], 0x02);
  bit_util::SetBitTo(bits, 9, false);
  EXPECT_EQ(bits[1], 0);
  bit_util::SetBitTo(bits, 7, true);
  EXPECT_EQ(bits[0], 0x81);
}

TEST(BitUtilTest, CountSetBitsAcrossBytesAndWords) {
  std::vector<uint8_t> bits(40, 0);
  std::vector<int> set = {0, 7, 8, 63, 64, 65, 127, 128, 200, 255, 300};
  for (int i : set) bit_util::SetBit(bits.data(), i);
  auto naive = [&](int64_t offset, int64_t length) {
    int64_t n = 0;
    for (int i : set) n += i >= offset && i < offset + length;
    return n;
  };
  for (int64_t offset : {0, 1, 7, 8, 9, 63, 64, 65}) {
    for (int64_t length : {0, 1, 7, 8, 56, 57, 64, 65, 130, 250}) {
      EXPECT_EQ(bit_util::CountSetBits(bits.data(), offset, length), naive(offset, length))
          << offset << "+" << length;
    }
  }
}

TEST(BitUtilTest, CopyBitsAndSetBitsUnaligned) {
  std::vector<uint8_t> src(20, 0);
  for (int i = 0; i < 160; i += 3) bit_util::SetBit(src.data(), i);
  for (int64_t src_offset : {0, 3, 8}) {
    for (int64_t dst_offset : {0, 5, 16}) {
      std::vector<uint8_t> dst(24, 0xff);
      bit_util::CopyBits(src.data(), src_offset, 100, dst.data(), dst_offset);
      for (int64_t i = 0; i < 100; ++i) {
        ASSERT_EQ(bit_util::GetBit(dst.data(), dst_offset + i), (src_offset + i) % 3 == 0)
            << src_offset << " " << dst_offset << " " << i;
      }
      // Bits around the copied range are untouched.
      if (dst_offset > 0) {
        EXPECT_TRUE(bit_util::GetBit(dst.data(), dst_offset - 1));
      }
      EXPECT_TRUE(bit_util::GetBit(dst.data(), dst_offset + 100));
    }
  }
  std::vector<uint8_t> bits(10, 0);
  bit_util::SetBitsTo(bits.data(), 5, 60, true);
  EXPECT_EQ(bit_util::CountSetBits(bits.data(), 0, 80), 60);
  EXPECT_FALSE(bit_util::GetBit(bits.data(), 4));
  EXPECT_TRUE(bit_util::GetBit(bits.data(), 5));
  EXPECT_TRUE(bit_util::GetBit(bits.data(), 64));
  EXPECT_FALSE(bit_util::GetBit(bits.data(), 65));
}

TEST(BitmapBuilderTest, AppendsAcrossByteBoundaries) {
  BitmapBuilder builder;
  for (int i = 0; i < 70; ++i) builder.Append(i % 2 == 0);
  builder.AppendN(10, true);
  EXPECT_EQ(builder.length(), 80);
  Buffer bitmap = builder.Finish();
  EXPECT_EQ(bitmap.size(), 10);
  EXPECT_EQ(bitmap.data()[0], 0x55);
  EXPECT_EQ(bit_util::CountSetBits(bitmap.data(), 0, 80), 45);
}

}  // namespace
}  // namespace floe
