#include "floe/format/parquet/thrift/compact.h"

#include <gtest/gtest.h>

#include <initializer_list>

#include "floe/testing/testing.h"

namespace floe::parquet::thrift {
namespace {

std::vector<std::byte> Bytes(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  for (int v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

// Byte sequences worked out by hand from the compact protocol specification.
TEST(CompactReaderTest, DecodesShortAndLongFieldHeaders) {
  // field 1 i32 = -3 (zigzag 5); field 20 (delta 19 > 15: long form, id zigzag 40) i64 = 150
  // (zigzag 300 = 0xac 0x02); field 21 bool true (delta 1); stop.
  auto data = Bytes({0x15, 0x05, 0x06, 0x28, 0xac, 0x02, 0x11, 0x00});
  CompactReader reader(data);
  FLOE_ASSERT_OK(reader.BeginStruct());
  FLOE_ASSERT_OK_AND_ASSIGN(FieldHeader f1, reader.ReadFieldHeader());
  EXPECT_EQ(f1.id, 1);
  EXPECT_EQ(f1.type, WireType::kI32);
  FLOE_ASSERT_OK_AND_ASSIGN(int32_t v1, reader.ReadI32());
  EXPECT_EQ(v1, -3);
  FLOE_ASSERT_OK_AND_ASSIGN(FieldHeader f2, reader.ReadFieldHeader());
  EXPECT_EQ(f2.id, 20);
  EXPECT_EQ(f2.type, WireType::kI64);
  FLOE_ASSERT_OK_AND_ASSIGN(int64_t v2, reader.ReadI64());
  EXPECT_EQ(v2, 150);
  FLOE_ASSERT_OK_AND_ASSIGN(FieldHeader f3, reader.ReadFieldHeader());
  EXPECT_EQ(f3.id, 21);
  EXPECT_TRUE(f3.bool_value());
  FLOE_ASSERT_OK_AND_ASSIGN(FieldHeader stop, reader.ReadFieldHeader());
  EXPECT_TRUE(stop.is_stop());
  FLOE_ASSERT_OK(reader.EndStruct());
  EXPECT_EQ(reader.remaining(), 0u);
}

TEST(CompactReaderTest, DecodesListsBinaryAndDoubles) {
  // list<i32> of 3: header 0x35; values 1, -1, 64 -> zigzag 2, 1, 128 (0x80 0x01)
  // binary "ab"; double 1.0 little-endian; list<bool> of 2: true (1), false (2).
  auto data = Bytes({0x35, 0x02, 0x01, 0x80, 0x01, 0x02, 'a', 'b', 0, 0, 0, 0, 0, 0, 0xf0, 0x3f,
                     0x21, 0x01, 0x02});
  CompactReader reader(data);
  FLOE_ASSERT_OK_AND_ASSIGN(ListHeader list, reader.ReadListHeader());
  EXPECT_EQ(list.size, 3u);
  EXPECT_EQ(list.element_type, WireType::kI32);
  std::vector<int32_t> values;
  for (uint32_t i = 0; i < list.size; ++i) {
    FLOE_ASSERT_OK_AND_ASSIGN(int32_t v, reader.ReadI32());
    values.push_back(v);
  }
  EXPECT_EQ(values, (std::vector<int32_t>{1, -1, 64}));
  FLOE_ASSERT_OK_AND_ASSIGN(std::string_view binary, reader.ReadBinary());
  EXPECT_EQ(binary, "ab");
  FLOE_ASSERT_OK_AND_ASSIGN(double d, reader.ReadDouble());
  EXPECT_EQ(d, 1.0);
  FLOE_ASSERT_OK_AND_ASSIGN(ListHeader bools, reader.ReadListHeader());
  EXPECT_EQ(bools.size, 2u);
  FLOE_ASSERT_OK_AND_ASSIGN(bool b0, reader.ReadBoolElement());
  FLOE_ASSERT_OK_AND_ASSIGN(bool b1, reader.ReadBoolElement());
  EXPECT_TRUE(b0);
  EXPECT_FALSE(b1);
}

TEST(CompactReaderTest, LongListSizeFollowsAsVarint) {
  CompactWriter writer;
  writer.WriteListHeader(WireType::kByte, 20);
  for (int i = 0; i < 20; ++i) writer.WriteByte(static_cast<int8_t>(i));
  EXPECT_EQ(writer.buffer()[0], std::byte{0xf3});
  EXPECT_EQ(writer.buffer()[1], std::byte{20});
  CompactReader reader(writer.buffer());
  FLOE_ASSERT_OK_AND_ASSIGN(ListHeader list, reader.ReadListHeader());
  EXPECT_EQ(list.size, 20u);
}

TEST(CompactReaderTest, SkipsEveryTypeOfUnknownField) {
  CompactWriter w;
  w.BeginStruct();
  w.BoolField(1, true);
  w.ByteField(2, -5);
  w.I16Field(3, -300);
  w.I32Field(4, 1 << 30);
  w.I64Field(5, INT64_MIN);
  w.DoubleField(6, 2.5);
  w.BinaryField(7, "hello");
  w.WriteFieldHeader(8, WireType::kList);
  w.WriteListHeader(WireType::kBoolTrue, 2);
  w.WriteBoolElement(true);
  w.WriteBoolElement(false);
  w.WriteFieldHeader(9, WireType::kSet);
  w.WriteListHeader(WireType::kStruct, 1);
  w.BeginStruct();
  w.I32Field(1, 7);
  w.EndStruct();
  // A map<binary, i32> of one entry, written by hand: size 1, key/value types 0x85.
  w.WriteFieldHeader(10, WireType::kMap);
  w.WriteI32(-1);  // zigzag(-1) = 1, the same byte as a varint size of 1
  w.WriteByte(static_cast<int8_t>(0x85));
  w.WriteBinary("k");
  w.WriteI32(9);
  w.BeginStructField(11);
  w.BeginStructField(1);
  w.BinaryField(200, "deep");
  w.EndStruct();
  w.EndStruct();
  w.I32Field(12, 42);
  w.EndStruct();

  CompactReader reader(w.buffer());
  FLOE_ASSERT_OK(reader.BeginStruct());
  int32_t found = 0;
  while (true) {
    FLOE_ASSERT_OK_AND_ASSIGN(FieldHeader field, reader.ReadFieldHeader());
    if (field.is_stop()) break;
    if (field.id == 12) {
      FLOE_ASSERT_OK_AND_ASSIGN(found, reader.ReadI32());
    } else {
      FLOE_ASSERT_OK(reader.Skip(field.type));
    }
  }
  FLOE_ASSERT_OK(reader.EndStruct());
  EXPECT_EQ(found, 42);
  EXPECT_EQ(reader.remaining(), 0u);
}

TEST(CompactWriterTest, RoundTripsExtremes) {
  CompactWriter w;
  w.BeginStruct();
  w.I16Field(1, INT16_MIN);
  w.I32Field(2, INT32_MIN);
  w.I64Field(3, INT64_MAX);
  w.I32Field(-5, 3);  // negative ids and backward deltas use the long form
  w.EndStruct();
  CompactReader r(w.buffer());
  FLOE_ASSERT_OK(r.BeginStruct());
  FLOE_ASSERT_OK_AND_ASSIGN(FieldHeader f, r.ReadFieldHeader());
  FLOE_ASSERT_OK_AND_ASSIGN(int16_t a, r.ReadI16());
  EXPECT_EQ(a, INT16_MIN);
  FLOE_ASSERT_OK_AND_ASSIGN(f, r.ReadFieldHeader());
  FLOE_ASSERT_OK_AND_ASSIGN(int32_t b, r.ReadI32());
  EXPECT_EQ(b, INT32_MIN);
  FLOE_ASSERT_OK_AND_ASSIGN(f, r.ReadFieldHeader());
  FLOE_ASSERT_OK_AND_ASSIGN(int64_t c, r.ReadI64());
  EXPECT_EQ(c, INT64_MAX);
  FLOE_ASSERT_OK_AND_ASSIGN(f, r.ReadFieldHeader());
  EXPECT_EQ(f.id, -5);
  FLOE_ASSERT_OK_AND_ASSIGN(int32_t d, r.ReadI32());
  EXPECT_EQ(d, 3);
}

TEST(CompactReaderTest, RejectsCorruptInput) {
  // A binary claiming 1 GiB with 2 bytes left.
  auto big_binary = Bytes({0x80, 0x80, 0x80, 0x80, 0x04, 'a', 'b'});
  CompactReader r1(big_binary);
  auto binary = r1.ReadBinary();
  ASSERT_FALSE(binary.has_value());
  EXPECT_EQ(binary.error().kind(), ErrorKind::kCorruptData);
  EXPECT_NE(binary.error().message().find("offset"), std::string::npos);

  // A list claiming a billion elements.
  auto big_list = Bytes({0xf5, 0x80, 0x80, 0x80, 0x80, 0x04, 0x00});
  CompactReader r2(big_list);
  EXPECT_FALSE(r2.ReadListHeader().has_value());

  // A varint that never ends.
  auto endless = Bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01});
  CompactReader r3(endless);
  EXPECT_FALSE(r3.ReadI64().has_value());

  // An i32 out of range.
  auto wide = Bytes({0xff, 0xff, 0xff, 0xff, 0x7f});
  CompactReader r4(wide);
  EXPECT_FALSE(r4.ReadI32().has_value());

  // Structs nested without end: skipping must stop at the depth limit, not overflow the stack.
  std::vector<std::byte> nested(100000, std::byte{0x1c});  // field delta 1, type struct
  CompactReader r5(nested);
  auto skipped = r5.Skip(WireType::kStruct);
  ASSERT_FALSE(skipped.has_value());
  EXPECT_NE(skipped.error().message().find("nested"), std::string::npos);

  // Truncated struct.
  auto truncated = Bytes({0x15});
  CompactReader r6(truncated);
  EXPECT_FALSE(r6.Skip(WireType::kStruct).has_value());

  // An invalid type nibble.
  auto bad_type = Bytes({0x1d});
  CompactReader r7(bad_type);
  FLOE_ASSERT_OK(r7.BeginStruct());
  EXPECT_FALSE(r7.ReadFieldHeader().has_value());
}

TEST(CompactReaderTest, ExpectChecksWireType) {
  CompactReader r(std::span<const std::byte>{});
  FieldHeader f{WireType::kBinary, 3};
  EXPECT_TRUE(r.Expect(f, WireType::kBinary).has_value());
  EXPECT_FALSE(r.Expect(f, WireType::kI32).has_value());
  FieldHeader b{WireType::kBoolFalse, 1};
  EXPECT_TRUE(r.Expect(b, WireType::kBoolTrue).has_value());
}

}  // namespace
}  // namespace floe::parquet::thrift
