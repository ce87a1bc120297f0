#include "floe/format/avro/encoding.h"

#include <gtest/gtest.h>

#include "floe/testing/testing.h"

namespace floe::avro {
namespace {

std::span<const std::byte> AsBytes(const std::string& s) { return std::as_bytes(std::span(s)); }

// The zig-zag examples in the Avro specification's "Binary Encoding" section.
TEST(EncodingTest, SpecificationExamples) {
  std::pair<int64_t, std::string> cases[] = {{0, "\x00"},     {-1, "\x01"}, {1, "\x02"},
                                             {-2, "\x03"},    {2, "\x04"},  {-64, "\x7f"},
                                             {64, "\x80\x01"}};
  for (const auto& [value, bytes] : cases) {
    std::string expected = value == 0 ? std::string(1, '\0') : bytes;
    Encoder e;
    e.WriteLong(value);
    EXPECT_EQ(e.buffer(), expected) << value;
    Decoder d(AsBytes(expected));
    FLOE_ASSERT_OK_AND_ASSIGN(int64_t back, d.ReadLong());
    EXPECT_EQ(back, value);
    EXPECT_TRUE(d.at_end());
  }
  // "foo" as a string: length 3 (zig-zag 06), then the bytes.
  Encoder e;
  e.WriteBytes("foo");
  EXPECT_EQ(e.buffer(),
            "\x06"
            "foo");
}

TEST(EncodingTest, ExtremesRoundTrip) {
  Encoder e;
  for (int64_t v : {INT64_MIN, INT64_MAX, int64_t{INT32_MIN}, int64_t{INT32_MAX}}) e.WriteLong(v);
  e.WriteFloat(3.5f);
  e.WriteDouble(-0.25);
  e.WriteBoolean(true);
  Decoder d(AsBytes(e.buffer()));
  EXPECT_EQ(*d.ReadLong(), INT64_MIN);
  EXPECT_EQ(*d.ReadLong(), INT64_MAX);
  EXPECT_EQ(*d.ReadInt(), INT32_MIN);
  EXPECT_EQ(*d.ReadInt(), INT32_MAX);
  EXPECT_EQ(*d.ReadFloat(), 3.5f);
  EXPECT_EQ(*d.ReadDouble(), -0.25);
  EXPECT_EQ(*d.ReadBoolean(), true);
  EXPECT_TRUE(d.at_end());
  // INT64_MIN takes the full ten bytes.
  Encoder m;
  m.WriteLong(INT64_MIN);
  EXPECT_EQ(m.buffer(), std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"));
}

TEST(EncodingTest, MalformedInputIsAnErrorWithItsOffset) {
  std::string eleven(10, '\x80');
  eleven.push_back('\x01');
  Decoder too_long(AsBytes(eleven), 100);
  auto r = too_long.ReadLong();
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message(), "varint longer than 10 bytes at offset 100");

  std::string cut = "\x80\x80";
  Decoder truncated(AsBytes(cut), 7);
  r = truncated.ReadLong();
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message(), "truncated varint at offset 7");

  // An int whose value does not fit in 32 bits.
  Encoder e;
  e.WriteLong(int64_t{1} << 40);
  Decoder big(AsBytes(e.buffer()));
  EXPECT_FALSE(big.ReadInt().has_value());

  // Lengths: negative, and longer than what remains.
  std::string negative = "\x01";
  Decoder n(AsBytes(negative));
  EXPECT_FALSE(n.ReadBytes().has_value());
  std::string longer =
      "\x0a"
      "abc";
  Decoder l(AsBytes(longer), 20);
  auto bytes = l.ReadBytes();
  ASSERT_FALSE(bytes.has_value());
  EXPECT_EQ(bytes.error().message(), "length 5 at offset 20 exceeds the 3 bytes that remain");

  std::string two = "\x02";
  Decoder b(AsBytes(two));
  EXPECT_FALSE(b.ReadBoolean().has_value());
  std::string three = "abc";
  Decoder f(AsBytes(three));
  EXPECT_FALSE(f.ReadDouble().has_value());
  EXPECT_FALSE(f.ReadFixed(4).has_value());
  EXPECT_EQ(*f.ReadFixed(3), "abc");
}

}  // namespace
}  // namespace floe::avro
