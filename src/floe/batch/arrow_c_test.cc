#include "floe/batch/arrow_c.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/batch/value.h"
#include "floe/testing/testing.h"

namespace floe {
namespace {

// Format strings as listed in the Arrow C Data Interface specification.
TEST(ArrowFormatTest, MatchesTheSpecification) {
  EXPECT_EQ(ArrowFormat(*DataType::Null()), "n");
  EXPECT_EQ(ArrowFormat(*DataType::Bool()), "b");
  EXPECT_EQ(ArrowFormat(*DataType::Int8()), "c");
  EXPECT_EQ(ArrowFormat(*DataType::UInt8()), "C");
  EXPECT_EQ(ArrowFormat(*DataType::Int16()), "s");
  EXPECT_EQ(ArrowFormat(*DataType::UInt16()), "S");
  EXPECT_EQ(ArrowFormat(*DataType::Int32()), "i");
  EXPECT_EQ(ArrowFormat(*DataType::UInt32()), "I");
  EXPECT_EQ(ArrowFormat(*DataType::Int64()), "l");
  EXPECT_EQ(ArrowFormat(*DataType::UInt64()), "L");
  EXPECT_EQ(ArrowFormat(*DataType::Float16()), "e");
  EXPECT_EQ(ArrowFormat(*DataType::Float32()), "f");
  EXPECT_EQ(ArrowFormat(*DataType::Float64()), "g");
  EXPECT_EQ(ArrowFormat(*DataType::Binary()), "z");
  EXPECT_EQ(ArrowFormat(*DataType::LargeBinary()), "Z");
  EXPECT_EQ(ArrowFormat(*DataType::String()), "u");
  EXPECT_EQ(ArrowFormat(*DataType::LargeString()), "U");
  EXPECT_EQ(ArrowFormat(*DataType::Decimal128(19, 10)), "d:19,10");
  EXPECT_EQ(ArrowFormat(*DataType::FixedSizeBinary(16)), "w:16");
  EXPECT_EQ(ArrowFormat(*DataType::Date32()), "tdD");
  EXPECT_EQ(ArrowFormat(*DataType::Time64(TimeUnit::kMicro)), "ttu");
  EXPECT_EQ(ArrowFormat(*DataType::Time64(TimeUnit::kNano)), "ttn");
  EXPECT_EQ(ArrowFormat(*DataType::Timestamp(TimeUnit::kMicro, false)), "tsu:");
  EXPECT_EQ(ArrowFormat(*DataType::Timestamp(TimeUnit::kNano, true)), "tsn:UTC");
  EXPECT_EQ(ArrowFormat(*DataType::List(DataType::Int32())), "+l");
  EXPECT_EQ(ArrowFormat(*DataType::Struct({})), "+s");
  EXPECT_EQ(ArrowFormat(*DataType::Map(DataType::String(), DataType::Int32())), "+m");
}

TEST(ArrowSchemaTest, ExportsNamesFlagsChildrenAndFieldIds) {
  Field field{"m",
              DataType::Map(Field{"key", DataType::String(), false, 7},
                            Field{"value", DataType::Int64(), true, 8}, true),
              false, 6};
  ArrowSchema schema;
  FLOE_ASSERT_OK(ExportField(field, &schema));
  EXPECT_STREQ(schema.format, "+m");
  EXPECT_STREQ(schema.name, "m");
  EXPECT_EQ(schema.flags, ARROW_FLAG_MAP_KEYS_SORTED);
  ASSERT_EQ(schema.n_children, 1);
  ArrowSchema* entries = schema.children[0];
  EXPECT_STREQ(entries->format, "+s");
  EXPECT_STREQ(entries->name, "entries");
  EXPECT_EQ(entries->flags, 0);
  ASSERT_EQ(entries->n_children, 2);
  EXPECT_STREQ(entries->children[0]->format, "u");
  EXPECT_EQ(entries->children[0]->flags, 0);
  EXPECT_EQ(entries->children[1]->flags, ARROW_FLAG_NULLABLE);
  // Metadata: 1 pair, "PARQUET:field_id" -> "6", lengths as native int32.
  std::string expected;
  auto put = [&](int32_t n) { expected.append(reinterpret_cast<const char*>(&n), 4); };
  put(1);
  put(16);
  expected += "PARQUET:field_id";
  put(1);
  expected += "6";
  ASSERT_NE(schema.metadata, nullptr);
  EXPECT_EQ(std::string(schema.metadata, expected.size()), expected);

  FLOE_ASSERT_OK_AND_ASSIGN(Field back, ImportField(&schema));
  EXPECT_EQ(schema.release, nullptr);  // consumed
  EXPECT_EQ(back, field) << back.ToString() << " vs " << field.ToString();
}

Array BuildColumn(const DataTypePtr& type, int rows);

// A batch with a column of every type, nulls at bitmap edges, then sliced at an odd offset.
RecordBatch EveryTypeBatch() {
  std::vector<Field> fields = {
      {"null", DataType::Null()},
      {"bool", DataType::Bool(), true, 1},
      {"i8", DataType::Int8(), true, 2},
      {"i16", DataType::Int16()},
      {"i32", DataType::Int32()},
      {"i64", DataType::Int64(), false, 3},
      {"u8", DataType::UInt8()},
      {"u16", DataType::UInt16()},
      {"u32", DataType::UInt32()},
      {"u64", DataType::UInt64()},
      {"f16", DataType::Float16()},
      {"f32", DataType::Float32()},
      {"f64", DataType::Float64()},
      {"dec", DataType::Decimal128(20, 3)},
      {"date", DataType::Date32()},
      {"time", DataType::Time64(TimeUnit::kMicro)},
      {"ts", DataType::Timestamp(TimeUnit::kMicro, false)},
      {"tstz_ns", DataType::Timestamp(TimeUnit::kNano, true)},
      {"bin", DataType::Binary()},
      {"str", DataType::String()},
      {"lbin", DataType::LargeBinary()},
      {"lstr", DataType::LargeString()},
      {"fixed", DataType::FixedSizeBinary(3)},
      {"list", DataType::List(Field{"element", DataType::Int32(), true, 20})},
      {"struct", DataType::Struct({{"a", DataType::String(), true, 21},
                                   {"b", DataType::List(DataType::Float64())}})},
      {"map", DataType::Map(DataType::String(), DataType::Int64())},
  };
  std::vector<Array> columns;
  for (const Field& field : fields) columns.push_back(BuildColumn(field.type, 70));
  // Keep the required column free of nulls.
  Int64Builder ids;
  for (int i = 0; i < 70; ++i) ids.Append(i * 3);
  columns[5] = *ids.Finish();
  auto batch = RecordBatch::Make(std::make_shared<BatchSchema>(fields), std::move(columns));
  EXPECT_TRUE(batch.has_value()) << batch.error().ToString();
  return batch->Slice(3, 64);
}

bool IsNullRow(int i) { return i % 5 == 2 || i == 7 || i == 8 || i == 63 || i == 64; }

void AppendSome(ArrayBuilder& builder, const DataType& type, int i) {
  switch (type.kind()) {
    case TypeKind::kNull:
      builder.AppendNull();
      return;
    case TypeKind::kBool:
      static_cast<BooleanBuilder&>(builder).Append(i % 2);
      return;
    case TypeKind::kInt8:
      static_cast<Int8Builder&>(builder).Append(static_cast<int8_t>(i - 50));
      return;
    case TypeKind::kInt16:
      static_cast<Int16Builder&>(builder).Append(static_cast<int16_t>(i * 300));
      return;
    case TypeKind::kInt32:
    case TypeKind::kDate32:
      static_cast<Int32Builder&>(builder).Append(i * 1000);
      return;
    case TypeKind::kInt64:
    case TypeKind::kTime64:
    case TypeKind::kTimestamp:
      static_cast<Int64Builder&>(builder).Append(i * 1000000007LL);
      return;
    case TypeKind::kUInt8:
      static_cast<UInt8Builder&>(builder).Append(static_cast<uint8_t>(i + 180));
      return;
    case TypeKind::kUInt16:
    case TypeKind::kFloat16:
      static_cast<UInt16Builder&>(builder).Append(static_cast<uint16_t>(0x3c00 + i));
      return;
    case TypeKind::kUInt32:
      static_cast<UInt32Builder&>(builder).Append(4000000000u + i);
      return;
    case TypeKind::kUInt64:
      static_cast<UInt64Builder&>(builder).Append(18000000000000000000ull + i);
      return;
    case TypeKind::kFloat32:
      static_cast<Float32Builder&>(builder).Append(i * 0.25f);
      return;
    case TypeKind::kFloat64:
      static_cast<Float64Builder&>(builder).Append(i / 3.0);
      return;
    case TypeKind::kDecimal128:
      static_cast<Decimal128Builder&>(builder).Append(static_cast<__int128>(i) *
                                                      -123456789012345LL);
      return;
    case TypeKind::kBinary:
    case TypeKind::kString:
      static_cast<StringBuilder&>(builder).Append(std::string(i % 4, 'a' + i % 26));
      return;
    case TypeKind::kLargeBinary:
    case TypeKind::kLargeString:
      static_cast<LargeStringBuilder&>(builder).Append(fmt::format("v{}", i));
      return;
    case TypeKind::kFixedSizeBinary:
      static_cast<FixedSizeBinaryBuilder&>(builder).Append(fmt::format("{:03}", i));
      return;
    case TypeKind::kList: {
      auto& list = static_cast<ListBuilder&>(builder);
      list.Append();
      for (int k = 0; k < i % 3; ++k) {
        if (k == 1 && i % 2) {
          list.value_builder()->AppendNull();
        } else {
          AppendSome(*list.value_builder(), *type.field(0).type, i + k);
        }
      }
      return;
    }
    case TypeKind::kStruct: {
      auto& record = static_cast<StructBuilder&>(builder);
      for (int f = 0; f < record.num_fields(); ++f) {
        AppendSome(*record.field_builder(f), *type.field(f).type, i + f);
      }
      record.Append();
      return;
    }
    case TypeKind::kMap: {
      auto& map = static_cast<MapBuilder&>(builder);
      map.Append();
      for (int k = 0; k < i % 3; ++k) {
        static_cast<StringBuilder&>(*map.key_builder()).Append(fmt::format("k{}", k));
        AppendSome(*map.item_builder(), *type.item_field().type, i * k);
      }
      return;
    }
  }
}

Array BuildColumn(const DataTypePtr& type, int rows) {
  auto builder = MakeBuilder(type);
  for (int i = 0; i < rows; ++i) {
    if (IsNullRow(i)) {
      builder->AppendNull();
    } else {
      AppendSome(*builder, *type, i);
    }
  }
  auto array = builder->Finish();
  EXPECT_TRUE(array.has_value()) << array.error().ToString();
  return *array;
}

TEST(ArrowArrayTest, RecordBatchRoundTripsEveryType) {
  RecordBatch batch = EveryTypeBatch();
  std::string expected_json;
  AppendJsonLines(batch, expected_json);

  ArrowSchema schema;
  ArrowArray array;
  FLOE_ASSERT_OK(ExportRecordBatch(batch, &schema, &array));
  EXPECT_STREQ(schema.format, "+s");
  EXPECT_EQ(schema.n_children, batch.num_columns());
  EXPECT_EQ(array.length, 64);
  EXPECT_EQ(array.n_buffers, 1);
  ArrowArray* i64 = array.children[5];
  EXPECT_EQ(i64->offset, 3);  // zero-copy: the slice's offset, not a compacted copy
  EXPECT_EQ(i64->buffers[0], nullptr);
  EXPECT_EQ(static_cast<const int64_t*>(i64->buffers[1])[3], 9);
  EXPECT_EQ(array.children[0]->n_buffers, 0);  // the null type has no buffers
  EXPECT_EQ(array.children[0]->null_count, 64);

  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch back, ImportRecordBatch(&array, &schema));
  EXPECT_EQ(array.release, nullptr);
  EXPECT_EQ(schema.release, nullptr);
  EXPECT_EQ(*back.schema(), *batch.schema());
  ASSERT_EQ(back.num_rows(), 64);
  for (int c = 0; c < batch.num_columns(); ++c) {
    EXPECT_TRUE(ArraysEqual(back.column(c), batch.column(c))) << batch.field(c).name;
    EXPECT_EQ(back.column(c).null_count(), batch.column(c).null_count()) << batch.field(c).name;
  }
  std::string round_trip_json;
  AppendJsonLines(back, round_trip_json);
  EXPECT_EQ(round_trip_json, expected_json);
  // Shared, not copied.
  EXPECT_EQ(back.column(19).data().data(), batch.column(19).data().data());
}

TEST(ArrowArrayTest, ImportedBuffersOutliveTheExporter) {
  Array imported;
  {
    StringBuilder builder(DataType::String());
    builder.Append("kept");
    builder.AppendNull();
    builder.Append("alive");
    FLOE_ASSERT_OK_AND_ASSIGN(Array original, builder.Finish());
    ArrowArray array;
    FLOE_ASSERT_OK(ExportArray(original.Slice(1, 2), &array));
    FLOE_ASSERT_OK_AND_ASSIGN(imported, ImportArray(&array, DataType::String()));
  }
  ASSERT_EQ(imported.length(), 2);
  EXPECT_TRUE(imported.IsNull(0));
  EXPECT_EQ(imported.GetString(1), "alive");
}

// A foreign producer: static buffers and a release callback that counts its calls.
int foreign_releases = 0;
void ReleaseForeign(ArrowArray* array) {
  ++foreign_releases;
  array->release = nullptr;
}

TEST(ArrowArrayTest, ImportsForeignArraysAndReleasesOnce) {
  // int32 [1, null, 3, 4] with offset 1 and an unknown null count (-1).
  static const uint8_t validity[] = {0b1101 << 1 | 1};
  static const int32_t values[] = {0, 1, 0, 3, 4};
  static const void* buffers[] = {validity, values};
  ArrowArray array{4, -1, 1, 2, 0, buffers, nullptr, nullptr, ReleaseForeign, nullptr};
  foreign_releases = 0;
  {
    FLOE_ASSERT_OK_AND_ASSIGN(Array imported, ImportArray(&array, DataType::Int32()));
    EXPECT_EQ(imported.null_count(), 1);
    EXPECT_EQ(GetValue(imported, 0).ToJson(), "1");
    EXPECT_TRUE(imported.IsNull(1));
    EXPECT_EQ(imported.Value<int32_t>(3), 4);
    Array copy = imported.Slice(2, 2);
    imported = Array();
    EXPECT_EQ(foreign_releases, 0);  // the slice still uses the buffers
    EXPECT_EQ(copy.Value<int32_t>(0), 3);
  }
  EXPECT_EQ(foreign_releases, 1);
}

TEST(ArrowArrayTest, RejectsMalformedAndUnsupportedInput) {
  static const int32_t values[] = {1, 2};
  static const void* one_buffer[] = {values};
  foreign_releases = 0;
  ArrowArray wrong{2, 0, 0, 1, 0, one_buffer, nullptr, nullptr, ReleaseForeign, nullptr};
  auto result = ImportArray(&wrong, DataType::Int32());
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind(), ErrorKind::kCorruptData);
  EXPECT_EQ(foreign_releases, 1);  // released even on error

  // Offsets that run backwards.
  static const int32_t offsets[] = {0, 5, 2};
  static const char chars[] = "hello";
  static const void* string_buffers[] = {nullptr, offsets, chars};
  ArrowArray backwards{2, 0, 0, 3, 0, string_buffers, nullptr, nullptr, ReleaseForeign, nullptr};
  auto bad_offsets = ImportArray(&backwards, DataType::String());
  ASSERT_FALSE(bad_offsets.has_value());
  EXPECT_NE(bad_offsets.error().message().find("offsets decrease"), std::string::npos);

  auto unsupported = [](const char* format) {
    ArrowSchema schema{format, "x",     nullptr, 0,
                       0,      nullptr, nullptr, [](ArrowSchema* s) { s->release = nullptr; },
                       nullptr};
    auto type = ImportType(&schema);
    EXPECT_EQ(schema.release, nullptr);
    return type.has_value() ? std::string("ok") : std::string(ErrorKindName(type.error().kind()));
  };
  std::string unsupported_kind(ErrorKindName(ErrorKind::kUnsupported));
  EXPECT_EQ(unsupported("tdm"), unsupported_kind);      // date64
  EXPECT_EQ(unsupported("tsm:UTC"), unsupported_kind);  // milliseconds
  EXPECT_EQ(unsupported("d:40,2,256"), unsupported_kind);
  EXPECT_EQ(unsupported("+L"), unsupported_kind);
  EXPECT_EQ(unsupported("tsu:Europe/Paris"), "ok");
  EXPECT_EQ(unsupported("d:39,2"), std::string(ErrorKindName(ErrorKind::kCorruptData)));
  EXPECT_EQ(unsupported("w:x"), std::string(ErrorKindName(ErrorKind::kCorruptData)));
}

TEST(ArrowArrayTest, ImportedTimestampZonesAreUtcInstants) {
  ArrowSchema schema{"tsn:+01:00",
                     "t",
                     nullptr,
                     ARROW_FLAG_NULLABLE,
                     0,
                     nullptr,
                     nullptr,
                     [](ArrowSchema* s) { s->release = nullptr; },
                     nullptr};
  FLOE_ASSERT_OK_AND_ASSIGN(Field field, ImportField(&schema));
  EXPECT_EQ(*field.type, *DataType::Timestamp(TimeUnit::kNano, true));
  EXPECT_TRUE(field.nullable);
  EXPECT_FALSE(field.field_id.has_value());
}

}  // namespace
}  // namespace floe
