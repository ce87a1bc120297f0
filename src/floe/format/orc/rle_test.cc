// The run-length decoders against the worked examples of the ORC v1 specification ("Run Length
// Encoding" sections), and against hand-made malformed runs.

#include <gtest/gtest.h>

#include <initializer_list>
#include <vector>

#include "floe/format/orc/rle_internal.h"

namespace floe::orc {
namespace {

std::vector<std::byte> Bytes(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  for (int v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

std::vector<int64_t> Ints(std::initializer_list<int> bytes, IntRleVersion version, bool is_signed,
                          int64_t count) {
  std::vector<int64_t> out(count);
  auto status = DecodeIntRle(Bytes(bytes), version, is_signed, count, out.data());
  EXPECT_TRUE(status) << status.error().ToString();
  return out;
}

TEST(OrcRle, ByteRleRunsAndLiterals) {
  // The spec: 100 zeros are 0x61 0x00; 0x44 0x45 are the literal list 0xfe 0x44 0x45.
  std::vector<uint8_t> out(102);
  ASSERT_TRUE(DecodeByteRle(Bytes({0x61, 0x00, 0xfe, 0x44, 0x45}), 102, out.data()));
  for (int i = 0; i < 100; ++i) EXPECT_EQ(out[i], 0);
  EXPECT_EQ(out[100], 0x44);
  EXPECT_EQ(out[101], 0x45);
}

TEST(OrcRle, BooleanRleIsMostSignificantBitFirst) {
  // The spec: a true then seven falses is the byte 0x80, written as the literal 0xff 0x80.
  uint8_t out[2] = {};
  ASSERT_TRUE(DecodeBooleanRle(Bytes({0xff, 0x80}), 8, out));
  EXPECT_EQ(out[0], 0x01);  // Arrow's order: bit 0 is the first value
}

TEST(OrcRle, IntegerV1RunsAndLiterals) {
  // The spec: [7, 7, 7, 7, 7] is 0x02 0x00 0x07 and [2, 3, 6, 7, 11] is 0xfb 0x02 0x03 0x06 0x07
  // 0xb (both unsigned); a run of 100 values from 100 down by 1 is 0x61 0xff 0x64.
  EXPECT_EQ(Ints({0x02, 0x00, 0x07}, IntRleVersion::kV1, false, 5),
            (std::vector<int64_t>{7, 7, 7, 7, 7}));
  EXPECT_EQ(Ints({0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b}, IntRleVersion::kV1, false, 5),
            (std::vector<int64_t>{2, 3, 6, 7, 11}));
  auto down = Ints({0x61, 0xff, 0x64}, IntRleVersion::kV1, false, 100);
  EXPECT_EQ(down.front(), 100);
  EXPECT_EQ(down.back(), 1);
}

TEST(OrcRle, IntegerV2ShortRepeat) {
  // The spec: [10000, 10000, 10000, 10000, 10000] is 0x0a 0x27 0x10.
  EXPECT_EQ(Ints({0x0a, 0x27, 0x10}, IntRleVersion::kV2, false, 5),
            (std::vector<int64_t>(5, 10000)));
}

TEST(OrcRle, IntegerV2Direct) {
  // The spec: [23713, 43806, 57005, 48879] is 0x5e 0x03 0x5c 0xa1 0xab 0x1e 0xde 0xad 0xbe 0xef.
  EXPECT_EQ(Ints({0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef}, IntRleVersion::kV2,
                 false, 4),
            (std::vector<int64_t>{23713, 43806, 57005, 48879}));
}

TEST(OrcRle, IntegerV2PatchedBase) {
  // The spec: 2030, 2000, 2020, 1000000, 2040 ... 2190 (steps of 10): base 2000, 8-bit offsets and
  // one 12-bit patch for 1000000 three values in.
  auto values =
      Ints({0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c, 0x46,
            0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8},
           IntRleVersion::kV2, false, 20);
  std::vector<int64_t> expected = {2030, 2000, 2020, 1000000};
  for (int v = 2040; v <= 2190; v += 10) expected.push_back(v);
  EXPECT_EQ(values, expected);
}

TEST(OrcRle, IntegerV2Delta) {
  // The spec: [2, 3, 5, 7, 11, 13, 17, 19, 23, 29] is 0xc6 0x09 0x02 0x02 0x22 0x42 0x42 0x46.
  EXPECT_EQ(Ints({0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46}, IntRleVersion::kV2, false, 10),
            (std::vector<int64_t>{2, 3, 5, 7, 11, 13, 17, 19, 23, 29}));
  // A fixed delta (width 0): base 10 (zigzag 20), delta -2 (zigzag 3), 4 values.
  EXPECT_EQ(Ints({0xc0, 0x03, 0x14, 0x03}, IntRleVersion::kV2, true, 4),
            (std::vector<int64_t>{10, 8, 6, 4}));
}

TEST(OrcRle, SignedValuesAreZigZag) {
  // Short repeat of zigzag 3 (-2), three times.
  EXPECT_EQ(Ints({0x00, 0x03}, IntRleVersion::kV2, true, 3), (std::vector<int64_t>{-2, -2, -2}));
}

TEST(OrcRle, MalformedRunsAreRefused) {
  std::vector<int64_t> out(8);
  // The stream ends inside a direct run.
  auto cut = DecodeIntRle(Bytes({0x5e, 0x03, 0x5c}), IntRleVersion::kV2, false, 4, out.data());
  ASSERT_FALSE(cut);
  EXPECT_EQ(cut.error().kind(), ErrorKind::kCorruptData);
  EXPECT_NE(cut.error().message().find("offset"), std::string::npos) << cut.error().message();
  // A run of 5 values where 3 are wanted.
  auto longer = DecodeIntRle(Bytes({0x0a, 0x27, 0x10}), IntRleVersion::kV2, false, 3, out.data());
  ASSERT_FALSE(longer);
  EXPECT_NE(longer.error().message().find("a run of 5 values where 3 remain"), std::string::npos);
  // A patch past the end of its run: gap 3 in a run of 2.
  auto patch = DecodeIntRle(Bytes({0x8e, 0x01, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0xfc, 0xe8}),
                            IntRleVersion::kV2, false, 2, out.data());
  ASSERT_FALSE(patch);
  EXPECT_NE(patch.error().message().find("patch past the end"), std::string::npos);
  // A varint that never ends.
  auto varint =
      DecodeIntRle(Bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}),
                   IntRleVersion::kV1, false, 1, out.data());
  ASSERT_FALSE(varint);
}

}  // namespace
}  // namespace floe::orc
