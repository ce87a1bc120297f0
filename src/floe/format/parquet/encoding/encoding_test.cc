#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "floe/format/parquet/encoding/bit_packed.h"
#include "floe/format/parquet/encoding/bit_unpack_internal.h"
#include "floe/format/parquet/encoding/byte_stream_split.h"
#include "floe/format/parquet/encoding/delta_binary_packed.h"
#include "floe/format/parquet/encoding/delta_byte_array.h"
#include "floe/format/parquet/encoding/delta_length_byte_array.h"
#include "floe/format/parquet/encoding/dictionary.h"
#include "floe/format/parquet/encoding/plain.h"
#include "floe/format/parquet/encoding/rle.h"
#include "floe/testing/testing.h"

namespace floe::parquet {
namespace {

std::vector<std::byte> Bytes(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  for (int v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

// Encodings.md: the values 0..7 with bit width 3, bit-packed in the RLE hybrid (LSB first).
TEST(RleTest, SpecBitPackedExample) {
  auto data = Bytes({0x03, 0x88, 0xc6, 0xfa});  // header: 1 group of 8, bit-packed
  FLOE_ASSERT_OK_AND_ASSIGN(auto decoder, RleBitPackedDecoder::Make(data, 3));
  std::vector<uint32_t> out(8);
  FLOE_ASSERT_OK(decoder.Decode(std::span(out)));
  EXPECT_EQ(out, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

// Encodings.md: the deprecated BIT_PACKED encoding of the same values (MSB first).
TEST(BitPackedTest, SpecExample) {
  auto data = Bytes({0x05, 0x39, 0x77});
  std::vector<int16_t> out(8);
  FLOE_ASSERT_OK_AND_ASSIGN(size_t used, DecodeBitPackedLevels(data, 3, out));
  EXPECT_EQ(used, 3u);
  EXPECT_EQ(out, (std::vector<int16_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(EncodeBitPackedLevels(out, 3), data);
  std::vector<int16_t> too_many(9);
  EXPECT_FALSE(DecodeBitPackedLevels(data, 3, too_many).has_value());
}

TEST(RleTest, RepeatedRunsAndMixedRoundTrip) {
  std::mt19937 rng(7);
  for (int width : {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 24, 31, 32}) {
    SCOPED_TRACE(width);
    uint64_t limit = width == 0 ? 0 : (width == 32 ? UINT32_MAX : (uint64_t{1} << width) - 1);
    std::vector<uint32_t> values;
    for (int run = 0; run < 60; ++run) {
      auto v = static_cast<uint32_t>(limit == 0 ? 0 : rng() % (limit + 1));
      size_t length = rng() % 3 == 0 ? 1 + rng() % 40 : 1;
      values.insert(values.end(), length, v);
    }
    RleBitPackedEncoder encoder(width);
    for (uint32_t v : values) encoder.Put(v);
    auto encoded = encoder.Finish();
    FLOE_ASSERT_OK_AND_ASSIGN(auto decoder, RleBitPackedDecoder::Make(encoded, width));
    std::vector<uint32_t> out(values.size());
    // Odd batch sizes cross run boundaries.
    for (size_t done = 0; done < out.size();) {
      size_t n = std::min<size_t>(13, out.size() - done);
      FLOE_ASSERT_OK(decoder.Decode(std::span(out).subspan(done, n)));
      done += n;
    }
    EXPECT_EQ(out, values);
  }
}

TEST(RleTest, RejectsTruncatedAndHostileInput) {
  EXPECT_FALSE(RleBitPackedDecoder::Make({}, 33).has_value());
  // A repeated run of 4 values, then nothing: asking for 5 fails.
  auto data = Bytes({0x08, 0x01});
  FLOE_ASSERT_OK_AND_ASSIGN(auto decoder, RleBitPackedDecoder::Make(data, 1));
  std::vector<uint32_t> out(5);
  auto status = decoder.Decode(std::span(out));
  ASSERT_FALSE(status.has_value());
  EXPECT_NE(status.error().message().find("after 4 of 5"), std::string::npos);
  // A bit-packed run claiming 2^27 groups with 1 byte of data, at bit width 0: no allocation of
  // the claimed size, values are zeros.
  auto huge = Bytes({0xff, 0xff, 0xff, 0xff, 0x0f});
  FLOE_ASSERT_OK_AND_ASSIGN(auto zero_width, RleBitPackedDecoder::Make(huge, 0));
  std::vector<uint32_t> zeros(1000, 9);
  FLOE_ASSERT_OK(zero_width.Decode(std::span(zeros)));
  EXPECT_EQ(zeros, std::vector<uint32_t>(1000, 0));
  // The same claim at width 8 only yields the values whose bytes exist.
  auto packed = Bytes({0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2, 3, 4, 5, 6, 7, 8});
  FLOE_ASSERT_OK_AND_ASSIGN(auto wide, RleBitPackedDecoder::Make(packed, 8));
  std::vector<uint32_t> eight(8), more(1);
  FLOE_ASSERT_OK(wide.Decode(std::span(eight)));
  EXPECT_EQ(eight, (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_FALSE(wide.Decode(std::span(more)).has_value());
  // A repeated value wider than the bit width.
  auto wide_value = Bytes({0x02, 0x05});
  FLOE_ASSERT_OK_AND_ASSIGN(auto narrow, RleBitPackedDecoder::Make(wide_value, 2));
  std::vector<uint32_t> one(1);
  EXPECT_FALSE(narrow.Decode(std::span(one)).has_value());
}

TEST(BitUnpackTest, MatchesPackingForEveryWidth) {
  std::mt19937_64 rng(3);
  for (int width = 0; width <= 64; ++width) {
    SCOPED_TRACE(width);
    for (size_t count : {1u, 8u, 31u, 32u, 100u}) {
      std::vector<uint64_t> values(count);
      uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
      for (auto& v : values) v = rng() & mask;
      std::vector<uint8_t> packed(BitPackedBytes(count, width));
      PackBits64(values.data(), count, width, packed.data());
      std::vector<uint64_t> out(count);
      UnpackBits64(packed.data(), count, width, out.data());
      EXPECT_EQ(out, values);
      if (width <= 32) {
        std::vector<uint32_t> out32(count);
        UnpackBits32(packed.data(), count, width, out32.data());
        for (size_t i = 0; i < count; ++i) EXPECT_EQ(out32[i], values[i]);
      }
    }
  }
}

TEST(PlainTest, FixedWidthBooleanAndByteArrays) {
  std::vector<int64_t> ints = {1, -2, INT64_MAX, INT64_MIN};
  std::vector<std::byte> data;
  EncodePlain<int64_t>(ints, data);
  EXPECT_EQ(data.size(), 32u);
  auto decoder = MakePlainDecoder<int64_t>(data);
  std::vector<int64_t> out(3);
  FLOE_ASSERT_OK(decoder->Decode(std::span(out)));
  EXPECT_EQ(out, (std::vector<int64_t>{1, -2, INT64_MAX}));
  std::vector<int64_t> two(2);
  EXPECT_FALSE(decoder->Decode(std::span(two)).has_value());  // only one left

  // Booleans: LSB first. 0b00001101 = true, false, true, true, false...
  auto bools = Bytes({0x0d});
  auto bool_decoder = MakePlainBooleanDecoder(bools);
  bool b[5];
  FLOE_ASSERT_OK(bool_decoder->Decode(std::span(b, 5)));
  EXPECT_TRUE(b[0] && !b[1] && b[2] && b[3] && !b[4]);
  bool rest[4];
  EXPECT_FALSE(bool_decoder->Decode(std::span(rest, 4)).has_value());

  std::vector<ByteArray> strings = {"", "a", "hello"};
  std::vector<std::byte> encoded;
  EncodePlainByteArray(strings, encoded);
  EXPECT_EQ(encoded.size(), 3 * 4 + 6u);
  auto string_decoder = MakePlainByteArrayDecoder(encoded);
  std::vector<ByteArray> decoded(3);
  FLOE_ASSERT_OK(string_decoder->Decode(std::span(decoded)));
  EXPECT_EQ(decoded, strings);
  // A length running past the end.
  auto bad = Bytes({0xff, 0x00, 0x00, 0x00, 'x'});
  auto bad_decoder = MakePlainByteArrayDecoder(bad);
  std::vector<ByteArray> one(1);
  EXPECT_FALSE(bad_decoder->Decode(std::span(one)).has_value());

  auto fixed = Bytes({'a', 'b', 'c', 'd', 'e', 'f'});
  auto fixed_decoder = MakePlainFixedLenByteArrayDecoder(fixed, 3);
  std::vector<ByteArray> pair(2);
  FLOE_ASSERT_OK(fixed_decoder->Decode(std::span(pair)));
  EXPECT_EQ(pair, (std::vector<ByteArray>{"abc", "def"}));
  EXPECT_FALSE(fixed_decoder->Decode(std::span(one)).has_value());
}

// Encodings.md, DELTA_BINARY_PACKED example 1: 1, 2, 3, 4, 5 are all deltas of 1, so the block
// has a min delta of 1 and bit width 0.
TEST(DeltaBinaryPackedTest, SpecExampleOne) {
  // block size 128, 4 miniblocks, 5 values, first value 1 (zigzag 2); min delta 1 (zigzag 2),
  // four bit widths of 0 and no miniblock data.
  auto data = Bytes({0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0, 0, 0, 0});
  FLOE_ASSERT_OK_AND_ASSIGN(auto decoder, DeltaBinaryPackedDecoder<int32_t>::Make(data));
  std::vector<int32_t> out(5);
  FLOE_ASSERT_OK(decoder->Decode(std::span(out)));
  EXPECT_EQ(out, (std::vector<int32_t>{1, 2, 3, 4, 5}));
  FLOE_ASSERT_OK_AND_ASSIGN(size_t end, decoder->EndOffset());
  EXPECT_EQ(end, data.size());
}

// Example 2: 7, 5, 3, 1, 2, 3, 4, 5: deltas -2 -2 -2 1 1 1 1, min delta -2, bit width 2 for the
// relative deltas 0 0 0 3 3 3 3 (padded to a 32-value miniblock).
TEST(DeltaBinaryPackedTest, SpecExampleTwo) {
  std::vector<int32_t> values = {7, 5, 3, 1, 2, 3, 4, 5};
  std::vector<std::byte> encoded;
  EncodeDeltaBinaryPacked<int32_t>(values, encoded);
  // Header 128/4/8/zigzag(7)=14, min delta zigzag(-2)=3, widths 2 0 0 0, 8 bytes of miniblock.
  auto expected_prefix = Bytes({0x80, 0x01, 0x04, 0x08, 0x0e, 0x03, 0x02, 0x00, 0x00, 0x00});
  ASSERT_EQ(encoded.size(), expected_prefix.size() + 8);
  EXPECT_TRUE(std::equal(expected_prefix.begin(), expected_prefix.end(), encoded.begin()));
  // Relative deltas 0,0,0,3,3,3,3,0 at 2 bits, LSB first: 0b11000000, 0b00111111.
  EXPECT_EQ(encoded[10], std::byte{0xc0});
  EXPECT_EQ(encoded[11], std::byte{0x3f});
  FLOE_ASSERT_OK_AND_ASSIGN(auto decoder, DeltaBinaryPackedDecoder<int32_t>::Make(encoded));
  std::vector<int32_t> out(8);
  FLOE_ASSERT_OK(decoder->Decode(std::span(out)));
  EXPECT_EQ(out, values);
}

TEST(DeltaBinaryPackedTest, RoundTripsExtremesAcrossBlocks) {
  std::mt19937_64 rng(11);
  std::vector<int64_t> values;
  for (int i = 0; i < 1000; ++i) {
    switch (i % 4) {
      case 0:
        values.push_back(static_cast<int64_t>(rng()));
        break;
      case 1:
        values.push_back(INT64_MIN);
        break;
      case 2:
        values.push_back(INT64_MAX);
        break;
      default:
        values.push_back(i);
        break;
    }
  }
  std::vector<std::byte> encoded;
  EncodeDeltaBinaryPacked<int64_t>(values, encoded);
  FLOE_ASSERT_OK_AND_ASSIGN(auto decoder, DeltaBinaryPackedDecoder<int64_t>::Make(encoded));
  EXPECT_EQ(decoder->total_values(), 1000u);
  std::vector<int64_t> out(values.size());
  for (size_t done = 0; done < out.size();) {
    size_t n = std::min<size_t>(77, out.size() - done);
    FLOE_ASSERT_OK(decoder->Decode(std::span(out).subspan(done, n)));
    done += n;
  }
  EXPECT_EQ(out, values);
  FLOE_ASSERT_OK_AND_ASSIGN(size_t end, decoder->EndOffset());
  EXPECT_EQ(end, encoded.size());
  std::vector<int64_t> extra(1);
  EXPECT_FALSE(decoder->Decode(std::span(extra)).has_value());

  std::vector<int32_t> ints = {INT32_MIN, INT32_MAX, 0, -1, INT32_MAX, INT32_MIN};
  std::vector<std::byte> encoded32;
  EncodeDeltaBinaryPacked<int32_t>(ints, encoded32);
  FLOE_ASSERT_OK_AND_ASSIGN(auto decoder32, DeltaBinaryPackedDecoder<int32_t>::Make(encoded32));
  std::vector<int32_t> out32(ints.size());
  FLOE_ASSERT_OK(decoder32->Decode(std::span(out32)));
  EXPECT_EQ(out32, ints);
}

TEST(DeltaBinaryPackedTest, RejectsBadHeaders) {
  // Block size not a multiple of 128; miniblocks not of 32; huge block; truncated block.
  EXPECT_FALSE(
      DeltaBinaryPackedDecoder<int32_t>::Make(Bytes({0x40, 0x04, 0x01, 0x00})).has_value());
  EXPECT_FALSE(
      DeltaBinaryPackedDecoder<int32_t>::Make(Bytes({0x80, 0x01, 0x03, 0x01, 0x00})).has_value());
  EXPECT_FALSE(
      DeltaBinaryPackedDecoder<int32_t>::Make(Bytes({0x80, 0x80, 0x80, 0x01, 0x04, 0x01, 0x00}))
          .has_value());
  auto truncated = Bytes({0x80, 0x01, 0x04, 0x40, 0x00, 0x00, 0x08});
  FLOE_ASSERT_OK_AND_ASSIGN(auto decoder, DeltaBinaryPackedDecoder<int32_t>::Make(truncated));
  std::vector<int32_t> out(64);
  EXPECT_FALSE(decoder->Decode(std::span(out)).has_value());
  EXPECT_FALSE(decoder->EndOffset().has_value());
}

TEST(DeltaByteArrayTest, LengthAndIncrementalRoundTrip) {
  std::vector<std::string> storage = {"apple",   "applesauce", "apply",
                                      "",        "banana",     "band",
                                      "bandana", "bandana",    std::string(300, 'x')};
  std::vector<ByteArray> values(storage.begin(), storage.end());
  std::vector<std::byte> dlba;
  EncodeDeltaLengthByteArray(values, dlba);
  FLOE_ASSERT_OK_AND_ASSIGN(auto length_decoder, DeltaLengthByteArrayDecoder::Make(dlba));
  std::vector<ByteArray> out(values.size());
  FLOE_ASSERT_OK(length_decoder->Decode(std::span(out)));
  EXPECT_EQ(out, values);
  EXPECT_EQ(length_decoder->position(), dlba.size());

  std::vector<std::byte> dba;
  EncodeDeltaByteArray(values, dba);
  FLOE_ASSERT_OK_AND_ASSIGN(auto decoder, DeltaByteArrayDecoder::Make(dba));
  std::vector<std::string> decoded;
  for (size_t done = 0; done < values.size();) {
    size_t n = std::min<size_t>(2, values.size() - done);
    std::vector<ByteArray> batch(n);
    FLOE_ASSERT_OK(decoder->Decode(std::span(batch)));
    for (ByteArray v : batch) decoded.emplace_back(v);
    done += n;
  }
  EXPECT_EQ(decoded, storage);
}

TEST(DeltaByteArrayTest, RejectsPrefixLongerThanPreviousValue) {
  // Prefix lengths {0, 5} with suffixes {"ab", "c"}: the second prefix exceeds "ab".
  std::vector<int32_t> prefixes = {0, 5};
  std::vector<ByteArray> suffixes = {"ab", "c"};
  std::vector<std::byte> data;
  EncodeDeltaBinaryPacked<int32_t>(prefixes, data);
  EncodeDeltaLengthByteArray(suffixes, data);
  FLOE_ASSERT_OK_AND_ASSIGN(auto decoder, DeltaByteArrayDecoder::Make(data));
  std::vector<ByteArray> out(2);
  auto status = decoder->Decode(std::span(out));
  ASSERT_FALSE(status.has_value());
  EXPECT_NE(status.error().message().find("prefix"), std::string::npos);
}

TEST(ByteStreamSplitTest, SpecLayoutAndRoundTrip) {
  // Two floats 1.0f (0x3f800000) and -2.0f (0xc0000000): streams of byte 0, 1, 2 and 3.
  auto data = Bytes({0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x3f, 0xc0});
  FLOE_ASSERT_OK_AND_ASSIGN(auto decoder, MakeByteStreamSplitDecoder<float>(data, 2));
  float out[2];
  FLOE_ASSERT_OK(decoder->Decode(std::span(out, 2)));
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], -2.0f);
  float more[1];
  EXPECT_FALSE(decoder->Decode(std::span(more, 1)).has_value());
  EXPECT_FALSE(MakeByteStreamSplitDecoder<double>(data, 2).has_value());

  std::vector<double> doubles = {0.5, -1e300, 3.25};
  std::vector<std::byte> encoded;
  EncodeByteStreamSplit(std::as_bytes(std::span(doubles)), 8, encoded);
  FLOE_ASSERT_OK_AND_ASSIGN(auto double_decoder, MakeByteStreamSplitDecoder<double>(encoded, 3));
  std::vector<double> decoded(3);
  FLOE_ASSERT_OK(double_decoder->Decode(std::span(decoded)));
  EXPECT_EQ(decoded, doubles);

  std::string fixed = "abcdeABCDE";
  std::vector<std::byte> flba;
  EncodeByteStreamSplit(std::as_bytes(std::span(fixed.data(), fixed.size())), 5, flba);
  FLOE_ASSERT_OK_AND_ASSIGN(auto fixed_decoder, MakeByteStreamSplitFixedLenDecoder(flba, 2, 5));
  std::vector<ByteArray> values(2);
  FLOE_ASSERT_OK(fixed_decoder->Decode(std::span(values)));
  EXPECT_EQ(values, (std::vector<ByteArray>{"abcde", "ABCDE"}));
}

TEST(DictionaryTest, IndicesAreChecked) {
  std::vector<ByteArray> dictionary = {"zero", "one", "two"};
  RleBitPackedEncoder encoder(2);
  for (uint32_t i : {2u, 0u, 1u, 1u, 2u}) encoder.Put(i);
  auto indices = encoder.Finish();
  std::vector<std::byte> data = {std::byte{2}};
  data.insert(data.end(), indices.begin(), indices.end());
  FLOE_ASSERT_OK_AND_ASSIGN(auto decoder,
                            MakeDictionaryDecoder<ByteArray>(std::span(dictionary), data));
  std::vector<ByteArray> out(5);
  FLOE_ASSERT_OK(decoder->Decode(std::span(out)));
  EXPECT_EQ(out, (std::vector<ByteArray>{"two", "zero", "one", "one", "two"}));

  // Index 3 in a dictionary of 3.
  RleBitPackedEncoder bad_encoder(2);
  bad_encoder.Put(3);
  auto bad_indices = bad_encoder.Finish();
  std::vector<std::byte> bad = {std::byte{2}};
  bad.insert(bad.end(), bad_indices.begin(), bad_indices.end());
  FLOE_ASSERT_OK_AND_ASSIGN(auto bad_decoder,
                            MakeDictionaryDecoder<ByteArray>(std::span(dictionary), bad));
  std::vector<ByteArray> one(1);
  auto status = bad_decoder->Decode(std::span(one));
  ASSERT_FALSE(status.has_value());
  EXPECT_NE(status.error().message().find("out of range"), std::string::npos);
  EXPECT_FALSE(MakeDictionaryDecoder<ByteArray>(std::span(dictionary), {}).has_value());
}

}  // namespace
}  // namespace floe::parquet
