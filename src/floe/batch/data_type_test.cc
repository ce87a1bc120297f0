#include "floe/batch/data_type.h"

#include <gtest/gtest.h>

#include "floe/batch/type_kinds.h"

namespace floe {
namespace {

TEST(DataTypeTest, FixedWidthsMatchArrowLayout) {
  EXPECT_EQ(DataType::Int8()->byte_width(), 1);
  EXPECT_EQ(DataType::UInt16()->byte_width(), 2);
  EXPECT_EQ(DataType::Float16()->byte_width(), 2);
  EXPECT_EQ(DataType::Date32()->byte_width(), 4);
  EXPECT_EQ(DataType::Float32()->byte_width(), 4);
  EXPECT_EQ(DataType::Timestamp(TimeUnit::kNano, true)->byte_width(), 8);
  EXPECT_EQ(DataType::Time64(TimeUnit::kMicro)->byte_width(), 8);
  EXPECT_EQ(DataType::Decimal128(38, 10)->byte_width(), 16);
  EXPECT_EQ(DataType::FixedSizeBinary(16)->byte_width(), 16);
  EXPECT_FALSE(DataType::Bool()->is_fixed_width());
  EXPECT_FALSE(DataType::String()->is_fixed_width());
  EXPECT_TRUE(DataType::String()->is_binary_like());
  EXPECT_TRUE(DataType::LargeBinary()->is_large());
  EXPECT_FALSE(DataType::Binary()->is_large());
}

TEST(DataTypeTest, IntegerKindsAreEverySignedAndUnsignedWidth) {
  for (TypeKind kind :
       {TypeKind::kInt8, TypeKind::kInt16, TypeKind::kInt32, TypeKind::kInt64, TypeKind::kUInt8,
        TypeKind::kUInt16, TypeKind::kUInt32, TypeKind::kUInt64}) {
    EXPECT_TRUE(IsIntegerKind(kind)) << static_cast<int>(kind);
  }
  for (TypeKind kind : {TypeKind::kNull, TypeKind::kBool, TypeKind::kFloat16, TypeKind::kFloat64,
                        TypeKind::kDecimal128, TypeKind::kDate32, TypeKind::kTimestamp,
                        TypeKind::kString, TypeKind::kList}) {
    EXPECT_FALSE(IsIntegerKind(kind)) << static_cast<int>(kind);
  }
}

TEST(DataTypeTest, EqualityComparesParameters) {
  EXPECT_EQ(*DataType::Decimal128(10, 2), *DataType::Decimal128(10, 2));
  EXPECT_NE(*DataType::Decimal128(10, 2), *DataType::Decimal128(10, 3));
  EXPECT_NE(*DataType::Timestamp(TimeUnit::kMicro, true),
            *DataType::Timestamp(TimeUnit::kMicro, false));
  EXPECT_NE(*DataType::Timestamp(TimeUnit::kMicro, true),
            *DataType::Timestamp(TimeUnit::kNano, true));
  // A SQL precision only says how many digits to show: the values are the same.
  EXPECT_EQ(*DataType::Timestamp(TimeUnit::kMicro, false, 3),
            *DataType::Timestamp(TimeUnit::kMicro, false));
  EXPECT_EQ(*DataType::Time64(TimeUnit::kMicro, 0), *DataType::Time64(TimeUnit::kMicro));
  EXPECT_EQ(DataType::Timestamp(TimeUnit::kMicro, false, 3)->precision(), 3);
  EXPECT_EQ(DataType::Timestamp(TimeUnit::kMicro, false)->precision(), 6);
  EXPECT_EQ(DataType::Timestamp(TimeUnit::kNano, true)->precision(), 9);
  EXPECT_EQ(DataType::Time64(TimeUnit::kMicro)->precision(), 6);
  EXPECT_NE(*DataType::FixedSizeBinary(4), *DataType::FixedSizeBinary(8));
  EXPECT_NE(*DataType::Int32(), *DataType::Date32());
  auto a = DataType::Struct({{"a", DataType::Int32(), true, 1}, {"b", DataType::String()}});
  auto b = DataType::Struct({{"a", DataType::Int32(), true, 1}, {"b", DataType::String()}});
  auto c = DataType::Struct({{"a", DataType::Int32(), true, 2}, {"b", DataType::String()}});
  auto d = DataType::Struct({{"a", DataType::Int32(), false, 1}, {"b", DataType::String()}});
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *c);
  EXPECT_NE(*a, *d);
  EXPECT_NE(*DataType::List(DataType::Int32()), *DataType::List(DataType::Int64()));
}

TEST(DataTypeTest, MapIsListOfKeyValueStructs) {
  auto map = DataType::Map(DataType::String(), DataType::Int64());
  ASSERT_EQ(map->num_fields(), 1);
  const Field& entries = map->field(0);
  EXPECT_EQ(entries.name, "entries");
  EXPECT_FALSE(entries.nullable);
  ASSERT_EQ(entries.type->kind(), TypeKind::kStruct);
  EXPECT_EQ(map->key_field().name, "key");
  EXPECT_FALSE(map->key_field().nullable);
  EXPECT_EQ(map->item_field().name, "value");
  EXPECT_TRUE(map->item_field().nullable);
  EXPECT_EQ(map->ToString(), "map<string, int64>");
}

TEST(DataTypeTest, ToStringSpellsParameters) {
  EXPECT_EQ(DataType::Decimal128(10, 2)->ToString(), "decimal128(10, 2)");
  EXPECT_EQ(DataType::Timestamp(TimeUnit::kMicro, true)->ToString(), "timestamp[us, tz=UTC]");
  EXPECT_EQ(DataType::Timestamp(TimeUnit::kNano, false)->ToString(), "timestamp[ns]");
  EXPECT_EQ(DataType::FixedSizeBinary(16)->ToString(), "fixed_size_binary[16]");
  EXPECT_EQ(DataType::List(Field{"element", DataType::Int32(), false, 7})->ToString(),
            "list<element: int32 not null id=7>");
  EXPECT_EQ(DataType::Struct({{"a", DataType::String()}})->ToString(), "struct<a: string>");
}

}  // namespace
}  // namespace floe
