#include "floe/format/parquet/writer/parquet_writer.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>

#include "floe/batch/builder.h"
#include "floe/batch/take.h"
#include "floe/batch/value.h"
#include "floe/format/parquet/bloom_filter.h"
#include "floe/format/parquet/column_reader.h"
#include "floe/format/parquet/file_reader.h"
#include "floe/format/parquet/metadata_thrift.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/format/parquet/writer/bounds_internal.h"
#include "floe/io/local_file_io.h"
#include "floe/testing/testing.h"

namespace floe::parquet {
namespace {

using floe::testing::TempDir;

Field F(std::string name, DataTypePtr type, int32_t id, bool nullable = true) {
  return Field{std::move(name), std::move(type), nullable, id};
}

RecordBatch MakeBatch(std::vector<Field> fields, const std::vector<std::vector<Value>>& columns) {
  std::vector<Array> arrays;
  for (size_t i = 0; i < fields.size(); ++i) {
    auto array = MakeArray(fields[i].type, columns[i]);
    EXPECT_TRUE(array.has_value()) << array.error().message();
    arrays.push_back(*array);
  }
  auto batch = RecordBatch::Make(std::make_shared<BatchSchema>(std::move(fields)), arrays);
  EXPECT_TRUE(batch.has_value()) << batch.error().message();
  return *batch;
}

Result<WriteResult> WriteFile(const std::filesystem::path& path,
                              const std::vector<RecordBatch>& batches, WriterOptions options) {
  io::LocalFileIO io;
  FLOE_ASSIGN_OR_RETURN(auto output, io.NewOutputFile(path.string()));
  FLOE_ASSIGN_OR_RETURN(auto file, output->CreateOrOverwrite());
  FLOE_ASSIGN_OR_RETURN(auto writer,
                        ParquetWriter::Make(std::move(file), batches[0].schema(), options));
  for (const RecordBatch& batch : batches) FLOE_RETURN_IF_ERROR(writer->Write(batch));
  return writer->Close();
}

// Every entry of one column over all row groups.
template <typename T>
struct ColumnData {
  std::vector<int16_t> defs, reps;
  std::vector<T> values;
  std::vector<std::string> bytes;  // ByteArray values, copied
};

template <typename T>
ColumnData<T> ReadAll(const FileReader& reader, size_t column) {
  ColumnData<T> data;
  for (size_t rg = 0; rg < reader.metadata().row_groups.size(); ++rg) {
    auto chunk = reader.ReadColumn<T>(rg, column);
    EXPECT_TRUE(chunk.has_value()) << chunk.error().message();
    if (!chunk) return data;
    while (true) {
      std::vector<int16_t> defs(256), reps(256);
      auto values = std::make_unique<T[]>(256);
      auto counts = (*chunk)->ReadBatch(256, defs.data(), reps.data(), values.get());
      EXPECT_TRUE(counts.has_value()) << counts.error().message();
      if (!counts || counts->levels == 0) break;
      data.defs.insert(data.defs.end(), defs.begin(), defs.begin() + counts->levels);
      data.reps.insert(data.reps.end(), reps.begin(), reps.begin() + counts->levels);
      for (size_t i = 0; i < counts->values; ++i) {
        if constexpr (std::is_same_v<T, ByteArray>) {
          data.bytes.emplace_back(values[i]);
        } else {
          data.values.push_back(values[i]);
        }
      }
    }
  }
  return data;
}

std::string Le32(int32_t v) {
  std::string s(4, '\0');
  std::memcpy(s.data(), &v, 4);
  return s;
}
std::string Le64(int64_t v) {
  std::string s(8, '\0');
  std::memcpy(s.data(), &v, 8);
  return s;
}
std::string LeDouble(double v) {
  std::string s(8, '\0');
  std::memcpy(s.data(), &v, 8);
  return s;
}

TEST(MakeParquetSchema, FollowsTheIcebergParquetAppendix) {
  BatchSchema schema({
      F("id", DataType::Int64(), 1, false),
      F("d9", DataType::Decimal128(9, 2), 2),
      F("d18", DataType::Decimal128(18, 2), 3),
      F("d38", DataType::Decimal128(38, 10), 4),
      F("ts", DataType::Timestamp(floe::TimeUnit::kMicro, true), 5),
      F("ts_ns", DataType::Timestamp(floe::TimeUnit::kNano, false), 6),
      F("u", DataType::FixedSizeBinary(16), 7),
      F("tags", DataType::List(Field{"element", DataType::String(), true, 9}), 8),
      F("m",
        DataType::Map(Field{"key", DataType::String(), false, 11},
                      Field{"value", DataType::Int32(), true, 12}),
        10),
      F("t", DataType::Time64(floe::TimeUnit::kMicro), 13),
  });
  WriterOptions options;
  options.uuid_field_ids = {7};
  FLOE_ASSERT_OK_AND_ASSIGN(auto elements, MakeParquetSchema(schema, options));
  FLOE_ASSERT_OK_AND_ASSIGN(auto tree, SchemaTree::Make(elements));
  auto node = [&](int32_t id) -> const SchemaNode& { return tree.node(tree.FindFieldId(id)); };
  EXPECT_EQ(node(1).repetition, Repetition::kRequired);
  EXPECT_EQ(node(2).physical_type, PhysicalType::kInt32);
  EXPECT_EQ(node(3).physical_type, PhysicalType::kInt64);
  EXPECT_EQ(node(4).physical_type, PhysicalType::kFixedLenByteArray);
  EXPECT_EQ(node(4).type_length, 16);  // 10^38 - 1 needs 127 bits
  EXPECT_EQ(node(4).logical_type->ToString(), "DECIMAL(38,10)");
  EXPECT_EQ(node(5).logical_type->ToString(), "TIMESTAMP(MICROS,true)");
  EXPECT_EQ(node(6).logical_type->ToString(), "TIMESTAMP(NANOS,false)");
  EXPECT_EQ(node(7).logical_type->kind, LogicalType::Kind::kUuid);
  EXPECT_EQ(node(13).logical_type->ToString(), "TIME(MICROS,false)");
  // 3-level list: tags (LIST) / repeated list / element, ids on the outer and element nodes.
  const SchemaNode& element = node(9);
  EXPECT_EQ(element.name, "element");
  EXPECT_EQ(tree.node(element.parent).name, "list");
  EXPECT_EQ(tree.node(element.parent).repetition, Repetition::kRepeated);
  EXPECT_EQ(node(8).logical_type->kind, LogicalType::Kind::kList);
  EXPECT_EQ(element.max_definition_level, 3);
  EXPECT_EQ(element.max_repetition_level, 1);
  EXPECT_EQ(tree.node(node(11).parent).name, "key_value");
  EXPECT_EQ(node(11).repetition, Repetition::kRequired);
  EXPECT_EQ(node(10).logical_type->kind, LogicalType::Kind::kMap);
}

TEST(MakeParquetSchema, DecimalWidthsAreMinimal) {
  // 9 bytes hold 2^71 > 10^21, 10^22 needs 10 bytes; 10^38 needs all 16.
  for (auto [precision, bytes] : {std::pair{19, 9}, {21, 9}, {22, 10}, {28, 12}, {38, 16}}) {
    BatchSchema schema({F("d", DataType::Decimal128(precision, 0), 1)});
    FLOE_ASSERT_OK_AND_ASSIGN(auto elements, MakeParquetSchema(schema, {}));
    EXPECT_EQ(elements[1].type_length, bytes) << precision;
  }
}

class ParquetWriterCodec : public ::testing::TestWithParam<Codec> {};

TEST_P(ParquetWriterCodec, FlatColumnsRoundTripWithStatistics) {
  TempDir dir;
  std::vector<Field> fields = {
      F("i", DataType::Int32(), 1),
      F("s", DataType::String(), 2),
      F("d", DataType::Float64(), 3),
      F("b", DataType::Bool(), 4, false),
      F("dec", DataType::Decimal128(30, 2), 5),
  };
  RecordBatch batch =
      MakeBatch(fields, {{Value(5), Value(), Value(-7), Value(5)},
                         {Value("pear"), Value("apple"), Value(), Value("zebra")},
                         {Value(1.5), Value(std::nan("")), Value(-0.0), Value()},
                         {Value(true), Value(false), Value(true), Value(true)},
                         {Value(DecimalValue{-12345, 30, 2}), Value(DecimalValue{1, 30, 2}),
                          Value(), Value(DecimalValue{99, 30, 2})}});
  WriterOptions options;
  options.codec = GetParam();
  options.default_metrics = {MetricsMode::Kind::kFull, 0};
  auto path = dir.path() / "flat.parquet";
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, WriteFile(path, {batch, batch}, options));
  EXPECT_EQ(result.row_count, 8);
  ASSERT_EQ(result.columns.size(), 5u);

  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::OpenPath(path));
  EXPECT_EQ(reader->metadata().num_rows, 8);
  EXPECT_EQ(reader->metadata().row_groups[0].columns[0].meta_data->codec, GetParam());
  auto ints = ReadAll<int32_t>(*reader, 0);
  EXPECT_EQ(ints.defs, (std::vector<int16_t>{1, 0, 1, 1, 1, 0, 1, 1}));
  EXPECT_EQ(ints.values, (std::vector<int32_t>{5, -7, 5, 5, -7, 5}));
  auto strings = ReadAll<ByteArray>(*reader, 1);
  EXPECT_EQ(strings.bytes,
            (std::vector<std::string>{"pear", "apple", "zebra", "pear", "apple", "zebra"}));
  auto doubles = ReadAll<double>(*reader, 2);
  ASSERT_EQ(doubles.values.size(), 6u);
  EXPECT_TRUE(std::isnan(doubles.values[1]));
  auto bools = ReadAll<bool>(*reader, 3);
  EXPECT_EQ(bools.values, (std::vector<bool>{true, false, true, true, true, false, true, true}));
  auto decimals = ReadAll<ByteArray>(*reader, 4);
  ASSERT_EQ(decimals.bytes.size(), 6u);
  // -12345 as 13-byte big-endian two's complement.
  EXPECT_EQ(decimals.bytes[0], std::string(11, '\xff') + "\xcf\xc7");

  // Statistics: min/max in Parquet order, NaN counted apart and not in min/max, -0 as min.
  const ColumnMetrics& i = result.columns[0];
  EXPECT_EQ(i.field_id, 1);
  EXPECT_EQ(i.value_count, 8);
  EXPECT_EQ(i.null_count, 2);
  EXPECT_EQ(i.lower_bound, Le32(-7));
  EXPECT_EQ(i.upper_bound, Le32(5));
  EXPECT_EQ(result.columns[1].lower_bound, "apple");
  EXPECT_EQ(result.columns[1].upper_bound, "zebra");
  const ColumnMetrics& d = result.columns[2];
  EXPECT_EQ(d.nan_count, 2);
  EXPECT_EQ(d.null_count, 2);
  EXPECT_EQ(d.lower_bound, LeDouble(-0.0));
  EXPECT_EQ(d.upper_bound, LeDouble(1.5));
  EXPECT_EQ(result.columns[4].lower_bound, std::string(11, '\xff') + "\xcf\xc7");
  const Statistics& stats = *reader->metadata().row_groups[0].columns[2].meta_data->statistics;
  EXPECT_EQ(stats.nan_count, 2);
  EXPECT_EQ(stats.min_value, LeDouble(-0.0));
  int64_t sizes = 0;
  for (const ColumnChunk& chunk : reader->metadata().row_groups[0].columns) {
    sizes += chunk.meta_data->total_compressed_size;
  }
  int64_t reported = 0;
  for (const ColumnMetrics& m : result.columns) reported += m.column_size;
  EXPECT_EQ(sizes, reported);
  EXPECT_EQ(result.split_offsets, (std::vector<int64_t>{4}));
}

INSTANTIATE_TEST_SUITE_P(AllCodecs, ParquetWriterCodec,
                         ::testing::Values(Codec::kUncompressed, Codec::kZstd, Codec::kSnappy,
                                           Codec::kGzip, Codec::kLz4Raw));

TEST(ParquetWriter, NestedLevelsFollowTheParquetRules) {
  TempDir dir;
  auto list_type = DataType::List(Field{"element", DataType::Int32(), true, 2});
  auto struct_type = DataType::Struct({Field{"x", DataType::Int64(), true, 4}});
  std::vector<Field> fields = {F("l", list_type, 1), F("st", struct_type, 3)};
  RecordBatch batch = MakeBatch(
      fields,
      {{Value(ListValue{{Value(1), Value(2)}}), Value(), Value(ListValue{}),
        Value(ListValue{{Value(), Value(3)}})},
       {Value(StructValue{{{"x", Value(int64_t{7})}}}), Value(),
        Value(StructValue{{{"x", Value()}}}), Value(StructValue{{{"x", Value(int64_t{8})}}})}});
  for (bool v2 : {false, true}) {
    WriterOptions options;
    options.data_page_v2 = v2;
    auto path = dir.path() / "nested.parquet";
    FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, WriteFile(path, {batch}, options));
    FLOE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::OpenPath(path));
    auto list = ReadAll<int32_t>(*reader, 0);
    // [1,2]: (3,0)(3,1); null: (0,0); []: (1,0); [null,3]: (2,0)(3,1).
    EXPECT_EQ(list.defs, (std::vector<int16_t>{3, 3, 0, 1, 2, 3}));
    EXPECT_EQ(list.reps, (std::vector<int16_t>{0, 1, 0, 0, 0, 1}));
    EXPECT_EQ(list.values, (std::vector<int32_t>{1, 2, 3}));
    auto x = ReadAll<int64_t>(*reader, 1);
    EXPECT_EQ(x.defs, (std::vector<int16_t>{2, 0, 1, 2}));
    EXPECT_EQ(x.values, (std::vector<int64_t>{7, 8}));
    EXPECT_EQ(result.columns[0].value_count, 6);
    EXPECT_EQ(result.columns[0].null_count, 3);
  }
}

TEST(ParquetWriter, DictionaryFallsBackToPlainAndRowGroupsAndPagesAreCut) {
  TempDir dir;
  std::vector<Value> strings, longs;
  for (int i = 0; i < 20000; ++i) {
    strings.emplace_back("value-" + std::to_string(i % 3000));
    longs.emplace_back(int64_t{i % 7});
  }
  RecordBatch batch =
      MakeBatch({F("s", DataType::String(), 1), F("n", DataType::Int64(), 2)}, {strings, longs});
  WriterOptions options;
  options.dict_size_bytes = 4000;
  options.page_size_bytes = 2000;
  options.row_group_size_bytes = 8000;
  auto path = dir.path() / "dict.parquet";
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, WriteFile(path, {batch}, options));
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::OpenPath(path));
  const FileMetaData& meta = reader->metadata();
  ASSERT_GT(meta.row_groups.size(), 1u);
  ASSERT_EQ(result.split_offsets.size(), meta.row_groups.size());
  for (size_t i = 0; i < meta.row_groups.size(); ++i) {
    EXPECT_EQ(result.split_offsets[i], *meta.row_groups[i].file_offset);
  }
  const auto& encodings = meta.row_groups[0].columns[0].meta_data->encodings;
  EXPECT_NE(std::ranges::find(encodings, Encoding::kRleDictionary), encodings.end());
  EXPECT_NE(std::ranges::find(encodings, Encoding::kPlain), encodings.end());
  auto s = ReadAll<ByteArray>(*reader, 0);
  ASSERT_EQ(s.bytes.size(), 20000u);
  for (int i = 0; i < 20000; i += 997) {
    EXPECT_EQ(s.bytes[static_cast<size_t>(i)], "value-" + std::to_string(i % 3000));
  }
  auto n = ReadAll<int64_t>(*reader, 1);
  ASSERT_EQ(n.values.size(), 20000u);
  EXPECT_EQ(n.values[12345], 12345 % 7);
  EXPECT_EQ(result.columns[1].lower_bound, Le64(0));
  EXPECT_EQ(result.columns[1].upper_bound, Le64(6));
}

// Three writers sharing page buffers (one thread writing three files) with a small budget for the
// pages they hold close row groups early: together they stay near the budget instead of holding
// a row group each, and every file still reads back whole. A writer alone keeps its row-group
// size; closing or dropping writers returns what they held.
TEST(ParquetWriter, WritersSharingPageBuffersHoldPagesWithinTheirBudget) {
  constexpr int64_t kRows = 4096, kBatches = 10;
  auto batch_of = [](int64_t first) {
    Int64Builder ids;
    StringBuilder names(DataType::String());
    for (int64_t i = first; i < first + kRows; ++i) {
      ids.Append(i);
      names.Append(fmt::format("row {:08} of the file", i * 7919 % 100003));
    }
    auto fields =
        std::vector<Field>{F("id", DataType::Int64(), 1), F("name", DataType::String(), 2)};
    return RecordBatch::Make(std::make_shared<BatchSchema>(std::move(fields)),
                             {*ids.Finish(), *names.Finish()})
        .value();
  };
  auto shared = std::make_shared<PageBuffers>();
  shared->held_budget = 256 << 10;
  WriterOptions options;
  options.codec = Codec::kUncompressed;
  options.page_buffers = shared;
  TempDir dir;
  io::LocalFileIO io;
  auto create = [&](const std::string& name) {
    auto file = io.NewOutputFile((dir.path() / name).string()).value()->CreateOrOverwrite().value();
    return ParquetWriter::Make(std::move(file), batch_of(0).schema(), options).value();
  };
  std::vector<std::unique_ptr<ParquetWriter>> writers;
  for (int w = 0; w < 3; ++w) writers.push_back(create(fmt::format("f{}.parquet", w)));
  EXPECT_EQ(shared->open_writers, 3);
  int64_t most_held = 0;
  for (int64_t b = 0; b < kBatches; ++b) {
    const RecordBatch batch = batch_of(b * kRows);
    for (auto& writer : writers) {
      FLOE_ASSERT_OK(writer->Write(batch));
      most_held = std::max(most_held, shared->held_bytes);
    }
  }
  EXPECT_LE(most_held, shared->held_budget);
  int64_t file_bytes = 0;
  for (int w = 0; w < 3; ++w) {
    FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, writers[static_cast<size_t>(w)]->Close());
    EXPECT_GT(result.metadata.row_groups.size(), 3u);
    file_bytes += result.file_size;
    FLOE_ASSERT_OK_AND_ASSIGN(auto reader,
                              FileReader::OpenPath(dir.path() / fmt::format("f{}.parquet", w)));
    auto ids = ReadAll<int64_t>(*reader, 0);
    ASSERT_EQ(ids.values.size(), static_cast<size_t>(kRows * kBatches));
    for (int64_t i = 0; i < kRows * kBatches; i += 4099) {
      EXPECT_EQ(ids.values[static_cast<size_t>(i)], i);
    }
    auto names = ReadAll<ByteArray>(*reader, 1);
    ASSERT_EQ(names.bytes.size(), static_cast<size_t>(kRows * kBatches));
    EXPECT_EQ(names.bytes[12345], fmt::format("row {:08} of the file", 12345 * 7919 % 100003));
  }
  // Without the budget, the writers would have held all of their files' pages at the end.
  EXPECT_GT(file_bytes, 4 * shared->held_budget);
  EXPECT_EQ(shared->open_writers, 0);
  EXPECT_EQ(shared->held_bytes, 0);

  auto alone = create("alone.parquet");
  for (int64_t b = 0; b < kBatches; ++b) FLOE_ASSERT_OK(alone->Write(batch_of(b * kRows)));
  EXPECT_GT(shared->held_bytes, 2 * shared->held_budget);
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult alone_result, alone->Close());
  EXPECT_EQ(alone_result.metadata.row_groups.size(), 1u);

  auto dropped = create("dropped.parquet");
  FLOE_ASSERT_OK(dropped->Write(batch_of(0)));
  EXPECT_GT(shared->held_bytes, 0);
  dropped.reset();
  EXPECT_EQ(shared->open_writers, 0);
  EXPECT_EQ(shared->held_bytes, 0);
}

// A chunk smaller than one page (a file per table or partition): values distinct from the start
// drop the dictionary at the early probe, while repeated values keep it, and everything reads
// back.
TEST(ParquetWriter, SmallChunksDropADictionaryOfDistinctValuesEarly) {
  TempDir dir;
  std::vector<Value> distinct, doubles, repeated, some;
  for (int i = 0; i < 5000; ++i) {
    distinct.emplace_back("id-" + std::to_string(i * 7919 % 100003));
    doubles.emplace_back(0.5 + i);
    repeated.emplace_back("kind-" + std::to_string(i % 50));
    some.emplace_back("m-" + std::to_string(i * 7919 % 700));
  }
  RecordBatch batch = MakeBatch({F("d", DataType::String(), 1), F("x", DataType::Float64(), 2),
                                 F("r", DataType::String(), 3), F("m", DataType::String(), 4)},
                                {distinct, doubles, repeated, some});
  auto path = dir.path() / "small.parquet";
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, WriteFile(path, {batch}, WriterOptions{}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::OpenPath(path));
  const auto& columns = reader->metadata().row_groups.at(0).columns;
  auto has = [&](size_t column, Encoding encoding) {
    const auto& encodings = columns.at(column).meta_data->encodings;
    return std::ranges::find(encodings, encoding) != encodings.end();
  };
  EXPECT_FALSE(has(0, Encoding::kRleDictionary));
  EXPECT_FALSE(columns[0].meta_data->dictionary_page_offset.has_value());
  EXPECT_FALSE(has(1, Encoding::kRleDictionary));
  EXPECT_TRUE(has(2, Encoding::kRleDictionary));
  EXPECT_TRUE(has(3, Encoding::kRleDictionary));
  auto d = ReadAll<ByteArray>(*reader, 0);
  auto x = ReadAll<double>(*reader, 1);
  auto r = ReadAll<ByteArray>(*reader, 2);
  auto m = ReadAll<ByteArray>(*reader, 3);
  ASSERT_EQ(d.bytes.size(), 5000u);
  ASSERT_EQ(x.values.size(), 5000u);
  ASSERT_EQ(r.bytes.size(), 5000u);
  ASSERT_EQ(m.bytes.size(), 5000u);
  for (size_t i = 0; i < 5000; ++i) {
    const auto row = static_cast<int>(i);
    ASSERT_EQ(d.bytes[i], "id-" + std::to_string(row * 7919 % 100003));
    ASSERT_EQ(x.values[i], 0.5 + row);
    ASSERT_EQ(r.bytes[i], "kind-" + std::to_string(row % 50));
    ASSERT_EQ(m.bytes[i], "m-" + std::to_string(row * 7919 % 700));
  }
  EXPECT_EQ(result.row_count, 5000);
}

TEST(ParquetWriter, RejectsAnotherSchema) {
  TempDir dir;
  RecordBatch a = MakeBatch({F("a", DataType::Int32(), 1)}, {{Value(1)}});
  RecordBatch b = MakeBatch({F("b", DataType::Int32(), 1)}, {{Value(1)}});
  auto result = WriteFile(dir.path() / "x.parquet", {a, b}, {});
  ASSERT_FALSE(result.has_value());
  EXPECT_NE(result.error().message().find("differs"), std::string::npos);
}

// Rows chosen by index (in any order, repeated) make the file the same rows gathered first make,
// call for call, byte for byte: every kind of column the flat and nested paths take, with
// nulls, NaNs, a dictionary that falls back to PLAIN and pages cut inside a call.
TEST(ParquetWriter, ChosenRowsWriteTheFileOfTheGatheredRows) {
  constexpr int64_t kRows = 5000;
  Int8Builder tinies(DataType::Int8());
  Int64Builder longs;
  Float64Builder doubles;
  Decimal128Builder decimals(DataType::Decimal128(38, 4));
  StringBuilder words(DataType::String()), digests(DataType::String());
  BooleanBuilder flags;
  std::vector<Value> lists, structs;
  for (int64_t r = 0; r < kRows; ++r) {
    const bool null = r % 11 == 3;
    if (null) {
      tinies.AppendNull();
      doubles.AppendNull();
      decimals.AppendNull();
      words.AppendNull();
      flags.AppendNull();
      lists.emplace_back();
    } else {
      tinies.Append(static_cast<int8_t>(r * 7 % 256 - 128));
      doubles.Append(r % 97 == 0 ? std::nan("") : 0.25 * static_cast<double>(r));
      decimals.Append(static_cast<__int128>(r) * 1000003 - 7);
      words.Append(fmt::format("w{}", r % 40));
      flags.Append(r % 3 == 0);
      lists.emplace_back(ListValue{{Value(static_cast<int32_t>(r)), Value()}});
    }
    longs.Append(r * r);
    digests.Append(fmt::format("{:016x}", static_cast<uint64_t>(r) * 0x9e3779b97f4a7c15ULL));
    structs.emplace_back(
        StructValue{{{"x", r % 5 == 0 ? Value() : Value(static_cast<double>(r))}}});
  }
  auto list_type = DataType::List(Field{"element", DataType::Int32(), true, 20});
  auto struct_type = DataType::Struct({Field{"x", DataType::Float64(), true, 21}});
  std::vector<Field> fields = {
      F("t", DataType::Int8(), 1),    F("l", DataType::Int64(), 2, false),
      F("d", DataType::Float64(), 3), F("dec", DataType::Decimal128(38, 4), 4),
      F("w", DataType::String(), 5),  F("h", DataType::String(), 6, false),
      F("b", DataType::Bool(), 7),    F("lst", list_type, 8),
      F("st", struct_type, 9)};
  std::vector<Array> columns = {*tinies.Finish(),
                                *longs.Finish(),
                                *doubles.Finish(),
                                *decimals.Finish(),
                                *words.Finish(),
                                *digests.Finish(),
                                *flags.Finish(),
                                *MakeArray(list_type, lists),
                                *MakeArray(struct_type, structs)};
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch batch,
                            RecordBatch::Make(std::make_shared<BatchSchema>(fields), columns));
  // Every row once in a scattered order, then a run of repeats: 6000 rows, past the writer's
  // 4096-row slices.
  std::vector<int64_t> rows;
  for (int64_t k = 0; k < kRows; ++k) rows.push_back(k * 2017 % kRows);
  for (int64_t k = 0; k < 1000; ++k) rows.push_back(k % 7 * 100);
  WriterOptions options;
  options.page_size_bytes = 4096;
  options.dict_size_bytes = 2048;  // the digests' dictionary falls back to PLAIN mid-chunk
  options.row_group_size_bytes = 64 << 10;

  TempDir dir;
  io::LocalFileIO io;
  auto create = [&](const std::string& name) {
    auto file = io.NewOutputFile((dir.path() / name).string()).value()->CreateOrOverwrite().value();
    return ParquetWriter::Make(std::move(file), batch.schema(), options).value();
  };
  auto chosen = create("chosen.parquet");
  const std::span<const int64_t> all(rows);
  FLOE_ASSERT_OK(chosen->Write(batch, all.first(2500)));
  FLOE_ASSERT_OK(chosen->Write(batch, all.subspan(2500)));
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult chosen_result, chosen->Close());
  auto gathered = create("gathered.parquet");
  FLOE_ASSERT_OK(gathered->Write(TakeBatch(batch, all.first(2500)).value()));
  FLOE_ASSERT_OK(gathered->Write(TakeBatch(batch, all.subspan(2500)).value()));
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult gathered_result, gathered->Close());

  EXPECT_EQ(chosen_result.row_count, 6000);
  EXPECT_GT(chosen_result.metadata.row_groups.size(), 1u);
  auto bytes = [&](const std::string& name) {
    std::ifstream in(dir.path() / name, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_EQ(bytes("chosen.parquet"), bytes("gathered.parquet"));
  EXPECT_EQ(chosen_result.file_size, gathered_result.file_size);

  // A row outside the batch fails before anything is written.
  auto bad = create("bad.parquet");
  const std::vector<int64_t> outside = {0, kRows};
  auto refused = bad->Write(batch, outside);
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message().find("row 5000 is outside a batch of 5000 rows"),
            std::string::npos)
      << refused.error().message();
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult empty, bad->Close());
  EXPECT_EQ(empty.row_count, 0);
}

TEST(Bounds, TruncationKeepsTheBoundsOutsideTheValues) {
  EXPECT_EQ(TruncateLowerBound("abcdef", 3, true), "abc");
  EXPECT_EQ(TruncateUpperBound("abcdef", 3, true), "abd");
  EXPECT_EQ(TruncateUpperBound("ab", 3, true), "ab");
  // Multi-byte code points count as one; U+10FFFF cannot grow, so the one before grows.
  EXPECT_EQ(TruncateLowerBound("\xc3\xa9\xc3\xa9x", 2, true), "\xc3\xa9\xc3\xa9");
  EXPECT_EQ(TruncateUpperBound("a\xf4\x8f\xbf\xbfz", 2, true), "b");
  EXPECT_EQ(TruncateUpperBound("\xf4\x8f\xbf\xbf\xf4\x8f\xbf\xbfz", 2, true), std::nullopt);
  // U+D7FF + 1 is a surrogate: skipped to U+E000.
  EXPECT_EQ(TruncateUpperBound("\xed\x9f\xbfzz", 1, true), "\xee\x80\x80");
  EXPECT_EQ(TruncateUpperBound(std::string("\x01\xff\x05", 3), 2, false), "\x02");
  EXPECT_EQ(TruncateUpperBound(std::string("\xff\xff\x05", 3), 2, false), std::nullopt);
}

TEST(ParquetWriter, MetricsModes) {
  TempDir dir;
  std::string long_value(40, 'q');
  RecordBatch batch = MakeBatch(
      {F("s", DataType::String(), 1), F("n", DataType::Int32(), 2), F("o", DataType::Int32(), 3)},
      {{Value(long_value)}, {Value(3)}, {Value(4)}});
  WriterOptions options;  // truncate(16) by default
  options.field_metrics[2] = {MetricsMode::Kind::kCounts, 0};
  options.field_metrics[3] = {MetricsMode::Kind::kNone, 0};
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result,
                            WriteFile(dir.path() / "m.parquet", {batch}, options));
  EXPECT_EQ(result.columns[0].lower_bound, std::string(16, 'q'));
  EXPECT_EQ(result.columns[0].upper_bound, std::string(15, 'q') + "r");
  EXPECT_EQ(result.columns[1].value_count, 1);
  EXPECT_FALSE(result.columns[1].lower_bound.has_value());
  EXPECT_EQ(result.columns[2].value_count, 0);
  EXPECT_EQ(result.columns[2].mode.kind, MetricsMode::Kind::kNone);
}

TEST(WriterOptions, ParsesTableProperties) {
  FLOE_ASSERT_OK_AND_ASSIGN(auto options,
                            ParseWriterOptions({{"write.parquet.row-group-size-bytes", "1000"},
                                                {"write.parquet.compression-codec", "SNAPPY"},
                                                {"write.parquet.compression-level", "3"},
                                                {"write.metadata.metrics.default", "truncate(8)"},
                                                {"other.property", "x"}}));
  EXPECT_EQ(options.row_group_size_bytes, 1000);
  EXPECT_EQ(options.codec, Codec::kSnappy);
  EXPECT_EQ(options.compression_level, 3);
  EXPECT_EQ(options.default_metrics, (MetricsMode{MetricsMode::Kind::kTruncate, 8}));
  auto bad = ParseWriterOptions({{"write.parquet.page-size-bytes", "12k"}});
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("write.parquet.page-size-bytes"), std::string::npos);
  EXPECT_FALSE(ParseWriterOptions({{"write.parquet.compression-codec", "lzo"}}).has_value());
  EXPECT_FALSE(ParseWriterOptions({{"write.metadata.metrics.default", "truncate(0)"}}).has_value());
  EXPECT_FALSE(ParseWriterOptions({{"write.parquet.compression-codec", "gzip"},
                                   {"write.parquet.compression-level", "12"}})
                   .has_value());
}

// Runs a peer script from the shared folder; nullopt when the peers are not installed.
std::optional<std::string> RunPeer(const std::string& peer, const std::string& sql) {
  auto script = floe::testing::SharedDir() / "peers" / peer;
  if (!std::filesystem::exists(script)) return std::nullopt;
  std::string command = script.string() + " \"" + sql + "\" 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) out.append(buffer, n);
  if (pclose(pipe) != 0) return "FAILED: " + out;
  return out;
}

RecordBatch PeerBatch() {
  auto list_type = DataType::List(Field{"element", DataType::Int32(), true, 20});
  auto map_type = DataType::Map(Field{"key", DataType::String(), false, 21},
                                Field{"value", DataType::Int64(), true, 22});
  auto struct_type = DataType::Struct({Field{"x", DataType::Float64(), true, 23}});
  std::vector<Field> fields = {
      F("i", DataType::Int32(), 1),
      F("l", DataType::Int64(), 2),
      F("s", DataType::String(), 3),
      F("dec", DataType::Decimal128(10, 2), 4),
      F("big", DataType::Decimal128(25, 3), 5),
      F("dt", DataType::Date32(), 6),
      F("ts", DataType::Timestamp(floe::TimeUnit::kMicro, true), 7),
      F("f", DataType::Float32(), 8),
      F("lst", list_type, 9),
      F("mp", map_type, 10),
      F("st", struct_type, 11),
      F("bin", DataType::Binary(), 12),
  };
  return MakeBatch(
      fields,
      {{Value(1), Value(), Value(-3)},
       {Value(int64_t{1} << 40), Value(int64_t{-5}), Value()},
       {Value("a"), Value(), Value("héllo")},
       {Value(DecimalValue{12345, 10, 2}), Value(), Value(DecimalValue{-1, 10, 2})},
       {Value(DecimalValue{-123456789, 25, 3}), Value(DecimalValue{5, 25, 3}), Value()},
       {Value(DateValue{18262}), Value(), Value(DateValue{-1})},
       {Value(TimestampValue{1577836800000000, floe::TimeUnit::kMicro, true}), Value(), Value()},
       {Value(1.5f), Value(), Value(-2.25f)},
       {Value(ListValue{{Value(1), Value()}}), Value(), Value(ListValue{})},
       {Value(MapValue{{{Value("k"), Value(int64_t{9})}}}), Value(), Value(MapValue{})},
       {Value(StructValue{{{"x", Value(0.5)}}}), Value(), Value(StructValue{{{"x", Value()}}})},
       {Value(BinaryValue{"ab"}), Value(), Value(BinaryValue{""})}});
}

TEST(ParquetWriterPeers, DuckDbReadsEqualRowsAndStatistics) {
  TempDir dir;
  auto path = dir.path() / "peer.parquet";
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, WriteFile(path, {PeerBatch()}, {}));
  auto rows = RunPeer("duck", "SELECT * FROM read_parquet('" + path.string() + "')");
  if (!rows) GTEST_SKIP() << "peers not installed (run peers/setup)";
  EXPECT_EQ(*rows,
            "{\"i\":1,\"l\":\"1099511627776\",\"s\":\"a\",\"dec\":123.45,\"big\":-123456.789,"
            "\"dt\":\"2020-01-01T00:00:00.000Z\",\"ts\":\"2020-01-01T00:00:00.000Z\",\"f\":1.5,"
            "\"lst\":[1,null],\"mp\":[{\"key\":\"k\",\"value\":\"9\"}],\"st\":{\"x\":0.5},"
            "\"bin\":\"6162\"}\n"
            "{\"i\":null,\"l\":\"-5\",\"s\":null,\"dec\":null,\"big\":0.005,\"dt\":null,"
            "\"ts\":null,\"f\":null,\"lst\":null,\"mp\":null,\"st\":null,\"bin\":null}\n"
            "{\"i\":-3,\"l\":null,\"s\":\"héllo\",\"dec\":-0.01,\"big\":null,"
            "\"dt\":\"1969-12-31T00:00:00.000Z\",\"ts\":null,\"f\":-2.25,\"lst\":[],\"mp\":[],"
            "\"st\":{\"x\":null},\"bin\":\"\"}\n");
  auto stats = RunPeer("duck",
                       "SELECT path_in_schema, stats_min_value, stats_max_value, stats_null_count "
                       "FROM parquet_metadata('" +
                           path.string() + "') WHERE path_in_schema IN ('i', 's', 'l')");
  EXPECT_EQ(*stats,
            "{\"path_in_schema\":\"i\",\"stats_min_value\":\"-3\",\"stats_max_value\":\"1\","
            "\"stats_null_count\":\"1\"}\n"
            "{\"path_in_schema\":\"l\",\"stats_min_value\":\"-5\",\"stats_max_value\":"
            "\"1099511627776\",\"stats_null_count\":\"1\"}\n"
            "{\"path_in_schema\":\"s\",\"stats_min_value\":\"a\",\"stats_max_value\":\"héllo\","
            "\"stats_null_count\":\"1\"}\n");
  EXPECT_EQ(result.columns[0].null_count, 1);
}

TEST(ParquetWriterPeers, ClickHouseReadsEqualRows) {
  TempDir dir;
  auto path = dir.path() / "peer.parquet";
  WriterOptions options;
  options.codec = Codec::kSnappy;
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, WriteFile(path, {PeerBatch()}, options));
  auto rows = RunPeer("ch", "SELECT i, l, s, dec, dt, lst, st.x FROM file('" + path.string() +
                                "', Parquet) FORMAT JSONEachRow");
  if (!rows) GTEST_SKIP() << "peers not installed (run peers/setup)";
  // ClickHouse reads a null list as an empty one (its arrays are never null).
  EXPECT_EQ(*rows,
            "{\"i\":1,\"l\":1099511627776,\"s\":\"a\",\"dec\":123.45,\"dt\":\"2020-01-01\","
            "\"lst\":[1,null],\"st.x\":0.5}\n"
            "{\"i\":null,\"l\":-5,\"s\":null,\"dec\":null,\"dt\":null,\"lst\":[],\"st.x\":null}\n"
            "{\"i\":-3,\"l\":null,\"s\":\"héllo\",\"dec\":-0.01,\"dt\":\"1969-12-31\","
            "\"lst\":[],\"st.x\":null}\n");
  EXPECT_EQ(result.row_count, 3);
}

// A page that starts without nulls and gets them later, in columns whose values are converted a
// run at a time (int8, int16, decimals on INT32 and INT64) and a double run holding a NaN: DuckDB's
// aggregates over the file equal those of the rows written.
TEST(ParquetWriterPeers, NullsAfterAPageStartAndConvertedRunsReadBackEqual) {
  constexpr int64_t kRows = 1200, kFirstNullable = 600;
  auto is_null = [](int64_t r) { return r >= kFirstNullable && r % 3 == 0; };
  auto tiny = [](int64_t r) { return static_cast<int8_t>(r * 7 % 256 - 128); };
  auto small = [](int64_t r) { return static_cast<int16_t>(r * 37 % 60000 - 30000); };
  auto dec9 = [](int64_t r) { return r * 101 - 50000; };
  auto dec18 = [](int64_t r) { return r * 1000003 - 600000000; };
  auto dbl = [](int64_t r) { return r == 5 ? std::nan("") : 0.5 * static_cast<double>(r); };
  std::vector<RecordBatch> batches;
  struct Sums {
    int64_t count = 0, tiny = 0, small = 0, dec9 = 0, dec18 = 0, twice_dbl = 0, nans = 0;
    int64_t tiny_min = 127, tiny_max = -128;
  } sums;
  for (int64_t first : {int64_t{0}, kFirstNullable}) {
    Int8Builder tinies(DataType::Int8());
    Int16Builder smalls(DataType::Int16());
    Decimal128Builder dec9s(DataType::Decimal128(9, 2)), dec18s(DataType::Decimal128(18, 2));
    Float64Builder doubles;
    StringBuilder strings(DataType::String());
    for (int64_t r = first; r < first + kFirstNullable; ++r) {
      if (is_null(r)) {
        tinies.AppendNull();
        smalls.AppendNull();
        dec9s.AppendNull();
        dec18s.AppendNull();
        doubles.AppendNull();
        strings.AppendNull();
        continue;
      }
      tinies.Append(tiny(r));
      smalls.Append(small(r));
      dec9s.Append(dec9(r));
      dec18s.Append(dec18(r));
      doubles.Append(dbl(r));
      strings.Append("v" + std::to_string(r % 10));
      ++sums.count;
      sums.tiny += tiny(r);
      sums.tiny_min = std::min<int64_t>(sums.tiny_min, tiny(r));
      sums.tiny_max = std::max<int64_t>(sums.tiny_max, tiny(r));
      sums.small += small(r);
      sums.dec9 += dec9(r);
      sums.dec18 += dec18(r);
      if (std::isnan(dbl(r))) {
        ++sums.nans;
      } else {
        sums.twice_dbl += r;  // twice 0.5 * r
      }
    }
    std::vector<Field> fields = {F("t", DataType::Int8(), 1),
                                 F("sm", DataType::Int16(), 2),
                                 F("d9", DataType::Decimal128(9, 2), 3),
                                 F("d18", DataType::Decimal128(18, 2), 4),
                                 F("x", DataType::Float64(), 5),
                                 F("s", DataType::String(), 6)};
    std::vector<Array> columns = {*tinies.Finish(), *smalls.Finish(),  *dec9s.Finish(),
                                  *dec18s.Finish(), *doubles.Finish(), *strings.Finish()};
    FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch batch,
                              RecordBatch::Make(std::make_shared<BatchSchema>(fields), columns));
    batches.push_back(std::move(batch));
  }
  TempDir dir;
  auto path = dir.path() / "late-nulls.parquet";
  FLOE_ASSERT_OK_AND_ASSIGN(WriteResult result, WriteFile(path, batches, {}));
  EXPECT_EQ(result.columns[0].null_count, kRows - sums.count);
  EXPECT_EQ(result.columns[0].lower_bound, Le32(sums.tiny_min));
  EXPECT_EQ(result.columns[4].nan_count, sums.nans);
  auto duck = RunPeer(
      "duck",
      "SELECT count(t)::VARCHAR AS n, sum(t)::VARCHAR AS t, min(t)::VARCHAR AS tmin, "
      "max(t)::VARCHAR AS tmax, sum(sm)::VARCHAR AS sm, (sum(d9) * 100)::BIGINT::VARCHAR AS d9, "
      "(sum(d18) * 100)::BIGINT::VARCHAR AS d18, "
      "(sum(x) FILTER (WHERE NOT isnan(x)) * 2)::BIGINT::VARCHAR AS x, "
      "count(*) FILTER (WHERE isnan(x))::VARCHAR AS nans, count(DISTINCT s)::VARCHAR AS s "
      "FROM '" +
          path.string() + "'");
  if (!duck) GTEST_SKIP() << "peers not installed (run peers/setup)";
  EXPECT_EQ(*duck, fmt::format("{{\"n\":\"{}\",\"t\":\"{}\",\"tmin\":\"{}\",\"tmax\":\"{}\","
                               "\"sm\":\"{}\",\"d9\":\"{}\",\"d18\":\"{}\",\"x\":\"{}\","
                               "\"nans\":\"{}\",\"s\":\"10\"}}\n",
                               sums.count, sums.tiny, sums.tiny_min, sums.tiny_max, sums.small,
                               sums.dec9, sums.dec18, sums.twice_dbl, sums.nans));
}

// One row of every Iceberg type (and a row of nulls), as the Parquet appendix maps them.
RecordBatch EveryTypeBatch() {
  auto list_type = DataType::List(Field{"element", DataType::Int32(), true, 30});
  auto map_type = DataType::Map(Field{"key", DataType::String(), false, 31},
                                Field{"value", DataType::Int64(), true, 32});
  auto struct_type = DataType::Struct({Field{"x", DataType::Float64(), true, 33}});
  std::vector<Field> fields = {
      F("b", DataType::Bool(), 1),
      F("i", DataType::Int32(), 2),
      F("l", DataType::Int64(), 3),
      F("f", DataType::Float32(), 4),
      F("d", DataType::Float64(), 5),
      F("d9", DataType::Decimal128(9, 2), 6),
      F("d18", DataType::Decimal128(18, 3), 7),
      F("d38", DataType::Decimal128(38, 10), 8),
      F("dt", DataType::Date32(), 9),
      F("tm", DataType::Time64(floe::TimeUnit::kMicro), 10),
      F("ts", DataType::Timestamp(floe::TimeUnit::kMicro, false), 11),
      F("tstz", DataType::Timestamp(floe::TimeUnit::kMicro, true), 12),
      F("tsn", DataType::Timestamp(floe::TimeUnit::kNano, false), 13),
      F("s", DataType::String(), 14),
      F("u", DataType::FixedSizeBinary(16), 15),
      F("fx", DataType::FixedSizeBinary(3), 16),
      F("bin", DataType::Binary(), 17),
      F("lst", list_type, 18),
      F("mp", map_type, 19),
      F("st", struct_type, 20),
  };
  std::string uuid("\x12\x34\x56\x78\x9a\xbc\xde\xf0\x01\x23\x45\x67\x89\xab\xcd\xef", 16);
  __int128 d38 = static_cast<__int128>(1234567890123LL) * 10000000000LL + 4567890123LL;
  std::vector<std::vector<Value>> columns = {
      {Value(true)},
      {Value(-7)},
      {Value(int64_t{1} << 40)},
      {Value(1.5f)},
      {Value(-2.25)},
      {Value(DecimalValue{12345, 9, 2})},
      {Value(DecimalValue{-123456789012LL, 18, 3})},
      {Value(DecimalValue{d38, 38, 10})},
      {Value(DateValue{19000})},
      {Value(TimeValue{3723000001LL, floe::TimeUnit::kMicro})},
      {Value(TimestampValue{1700000000123456LL, floe::TimeUnit::kMicro, false})},
      {Value(TimestampValue{1700000000123456LL, floe::TimeUnit::kMicro, true})},
      {Value(TimestampValue{1700000000123456789LL, floe::TimeUnit::kNano, false})},
      {Value("h\xc3\xa9llo")},
      {Value(BinaryValue{uuid})},
      {Value(BinaryValue{"abc"})},
      {Value(BinaryValue{std::string("\x00\xff", 2)})},
      {Value(ListValue{{Value(1), Value(), Value(3)}})},
      {Value(MapValue{{{Value("k"), Value(int64_t{9})}}})},
      {Value(StructValue{{{"x", Value(0.5)}}})},
  };
  for (auto& column : columns) column.push_back(Value());
  return MakeBatch(fields, columns);
}

// Every type in every codec: DuckDB and ClickHouse read the same rows from each file. The values
// are those EveryTypeBatch writes (19000 days after 1970-01-01 is 2022-01-08; 1700000000 s is
// 2023-11-14 22:13:20 UTC; 3723000001 us is 01:02:03.000001).
TEST(ParquetWriterPeers, EveryTypeInEveryCodecReadsBackInDuckDbAndClickHouse) {
  TempDir dir;
  for (Codec codec :
       {Codec::kUncompressed, Codec::kSnappy, Codec::kGzip, Codec::kLz4Raw, Codec::kZstd}) {
    SCOPED_TRACE(static_cast<int>(codec));
    WriterOptions options;
    options.codec = codec;
    options.uuid_field_ids = {15};
    options.key_value_metadata = {{"iceberg.schema", std::string("{\"type\":\"struct\"}")}};
    auto path = (dir.path() / fmt::format("every-{}.parquet", static_cast<int>(codec))).string();
    FLOE_ASSERT_OK(WriteFile(path, {EveryTypeBatch()}, options));
    auto duck = RunPeer(
        "duck",
        "SELECT b::VARCHAR b, i::VARCHAR i, l::VARCHAR l, f::VARCHAR f, d::VARCHAR d, "
        "d9::VARCHAR d9, d18::VARCHAR d18, d38::VARCHAR d38, dt::VARCHAR dt, tm::VARCHAR tm, "
        "ts::VARCHAR ts, epoch_us(tstz)::VARCHAR tstz, tsn::VARCHAR tsn, s, u::VARCHAR u, "
        "hex(fx) fx, hex(bin) bin, lst::VARCHAR lst, mp::VARCHAR mp, st.x::VARCHAR x FROM '" +
            path + "'");
    if (!duck) GTEST_SKIP() << "peers not installed (run peers/setup)";
    EXPECT_EQ(
        *duck,
        "{\"b\":\"true\",\"i\":\"-7\",\"l\":\"1099511627776\",\"f\":\"1.5\",\"d\":\"-2.25\","
        "\"d9\":\"123.45\",\"d18\":\"-123456789.012\",\"d38\":\"1234567890123.4567890123\","
        "\"dt\":\"2022-01-08\",\"tm\":\"01:02:03.000001\",\"ts\":\"2023-11-14 22:13:20.123456\","
        "\"tstz\":\"1700000000123456\",\"tsn\":\"2023-11-14 22:13:20.123456789\",\"s\":\"héllo\","
        "\"u\":\"12345678-9abc-def0-0123-456789abcdef\",\"fx\":\"616263\",\"bin\":\"00FF\","
        "\"lst\":\"[1, NULL, 3]\",\"mp\":\"{k=9}\",\"x\":\"0.5\"}\n"
        "{\"b\":null,\"i\":null,\"l\":null,\"f\":null,\"d\":null,\"d9\":null,\"d18\":null,"
        "\"d38\":null,\"dt\":null,\"tm\":null,\"ts\":null,\"tstz\":null,\"tsn\":null,\"s\":null,"
        "\"u\":null,\"fx\":null,\"bin\":null,\"lst\":null,\"mp\":null,\"x\":null}\n");
    auto ch = RunPeer("ch",
                      "SELECT b, i, l, f, d, toString(d9) AS d9, toString(d18) AS d18, "
                      "toString(d38) AS d38, toString(dt) AS dt, toString(ts) AS ts, "
                      "toString(tsn) AS tsn, s, hex(fx) AS fx, hex(bin) AS bin, lst, mp, "
                      "st.x AS x FROM file('" +
                          path + "', Parquet) FORMAT JSONEachRow");
    auto metadata =
        RunPeer("duck", "SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('" +
                            path + "') ORDER BY k");
    EXPECT_EQ(*metadata, "{\"k\":\"iceberg.schema\",\"v\":\"{\\\"type\\\":\\\"struct\\\"}\"}\n");
    // ClickHouse reads null lists and maps as empty ones (its arrays and maps are never null).
    EXPECT_EQ(
        *ch,
        "{\"b\":true,\"i\":-7,\"l\":1099511627776,\"f\":1.5,\"d\":-2.25,\"d9\":\"123.45\","
        "\"d18\":\"-123456789.012\",\"d38\":\"1234567890123.4567890123\",\"dt\":\"2022-01-08\","
        "\"ts\":\"2023-11-14 22:13:20.123456\",\"tsn\":\"2023-11-14 22:13:20.123456789\","
        "\"s\":\"héllo\",\"fx\":\"616263\",\"bin\":\"00FF\",\"lst\":[1,null,3],\"mp\":{\"k\":9},"
        "\"x\":0.5}\n"
        "{\"b\":null,\"i\":null,\"l\":null,\"f\":null,\"d\":null,\"d9\":null,\"d18\":null,"
        "\"d38\":null,\"dt\":null,\"ts\":null,\"tsn\":null,\"s\":null,\"fx\":null,\"bin\":null,"
        "\"lst\":[],\"mp\":{},\"x\":null}\n");
  }
}

// Sorted ids, timestamps one millisecond apart, and a string column with a null every 7th row:
// the row data the index tests check the writer's page index, bloom filters and encodings against.
RecordBatch IndexedBatch(int64_t first, int64_t rows) {
  Int64Builder ids;
  TimestampBuilder times(DataType::Timestamp(floe::TimeUnit::kMicro, false));
  StringBuilder names(DataType::String());
  for (int64_t i = first; i < first + rows; ++i) {
    ids.Append(3 * i);
    times.Append(1767225600000000 + 1000 * i);
    if (i % 7 == 0) {
      names.AppendNull();
    } else {
      names.Append("name" + std::to_string(i % 500));
    }
  }
  std::vector<Field> fields = {F("id", DataType::Int64(), 1),
                               F("ts", DataType::Timestamp(floe::TimeUnit::kMicro, false), 2),
                               F("name", DataType::String(), 3)};
  std::vector<Array> columns = {*ids.Finish(), *times.Finish(), *names.Finish()};
  auto batch = RecordBatch::Make(std::make_shared<BatchSchema>(std::move(fields)), columns);
  EXPECT_TRUE(batch.has_value());
  return *batch;
}

TEST(ParquetWriterIndexes, PageIndexDescribesEveryPage) {
  TempDir dir;
  auto path = dir.path() / "indexed.parquet";
  WriterOptions options;
  options.page_row_limit = 1000;
  FLOE_ASSERT_OK(WriteFile(path, {IndexedBatch(0, 5500)}, options));
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::OpenPath(path));
  const RowGroup& group = reader->metadata().row_groups.at(0);
  ASSERT_EQ(group.columns.size(), 3u);
  for (size_t c = 0; c < 3; ++c) {
    const ColumnChunk& chunk = group.columns[c];
    ASSERT_TRUE(chunk.offset_index_offset && chunk.column_index_offset) << c;
    FLOE_ASSERT_OK_AND_ASSIGN(auto offset_bytes, reader->source().Read(*chunk.offset_index_offset,
                                                                       *chunk.offset_index_length));
    FLOE_ASSERT_OK_AND_ASSIGN(OffsetIndex offsets, DecodeOffsetIndex(offset_bytes));
    FLOE_ASSERT_OK_AND_ASSIGN(auto column_bytes, reader->source().Read(*chunk.column_index_offset,
                                                                       *chunk.column_index_length));
    FLOE_ASSERT_OK_AND_ASSIGN(ColumnIndex index, DecodeColumnIndex(column_bytes));
    // 5500 rows at 1000 rows a page.
    ASSERT_EQ(offsets.page_locations.size(), 6u) << c;
    ASSERT_EQ(index.min_values.size(), 6u);
    for (size_t p = 0; p < 6; ++p) {
      const PageLocation& location = offsets.page_locations[p];
      EXPECT_EQ(location.first_row_index, static_cast<int64_t>(1000 * p));
      // Each location holds exactly one data page header and its body.
      FLOE_ASSERT_OK_AND_ASSIGN(
          auto page, reader->source().Read(location.offset, location.compressed_page_size));
      FLOE_ASSERT_OK_AND_ASSIGN(DecodedPageHeader header, DecodePageHeader(page));
      EXPECT_EQ(header.header.type, PageType::kDataPage);
      EXPECT_EQ(header.size + header.header.compressed_page_size,
                static_cast<size_t>(location.compressed_page_size));
      int64_t first = 1000 * static_cast<int64_t>(p),
              last = std::min<int64_t>(first + 1000, 5500) - 1;
      EXPECT_FALSE(index.null_pages[p]);
      if (c == 0) {
        int64_t lo, hi;
        std::memcpy(&lo, index.min_values[p].data(), 8);
        std::memcpy(&hi, index.max_values[p].data(), 8);
        EXPECT_EQ(lo, 3 * first);
        EXPECT_EQ(hi, 3 * last);
        EXPECT_EQ(index.null_counts[p], 0);
      }
      if (c == 2) {
        int64_t nulls = 0;
        for (int64_t i = first; i <= last; ++i) nulls += i % 7 == 0;
        EXPECT_EQ(index.null_counts[p], nulls);
      }
    }
    // Every page of names holds the same bounds (name1..name99), which is ascending too.
    EXPECT_EQ(index.boundary_order, BoundaryOrder::kAscending);
  }
}

TEST(ParquetWriterIndexes, SortedIntegersUseDeltaEncodingAndPeersReadThem) {
  TempDir dir;
  auto path = dir.path() / "delta.parquet";
  FLOE_ASSERT_OK(WriteFile(path, {IndexedBatch(0, 300000)}, {}));
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::OpenPath(path));
  const auto& encodings = reader->metadata().row_groups.at(0).columns.at(0).meta_data->encodings;
  EXPECT_NE(std::ranges::find(encodings, Encoding::kDeltaBinaryPacked), encodings.end());
  auto duck = RunPeer("duck",
                      "SELECT count(*)::VARCHAR AS n, sum(id)::VARCHAR AS s, "
                      "max(ts)::VARCHAR AS t, count(name)::VARCHAR AS c FROM '" +
                          path.string() + "'");
  if (!duck) GTEST_SKIP() << "peers not installed (run peers/setup)";
  // sum(3i) for i < 300000 = 3 * 299999 * 300000 / 2; the last ts is 299.999 s after 2026-01-01.
  EXPECT_EQ(*duck,
            "{\"n\":\"300000\",\"s\":\"134999550000\",\"t\":\"2026-01-01 00:04:59.999\","
            "\"c\":\"257142\"}\n");
  auto ch = RunPeer("ch", "SELECT count() AS n, sum(id) AS s, toString(max(ts)) AS t FROM file('" +
                              path.string() + "', Parquet) FORMAT JSONEachRow");
  EXPECT_EQ(*ch, "{\"n\":300000,\"s\":134999550000,\"t\":\"2026-01-01 00:04:59.999000\"}\n");
}

// Strings without structure (hex of a 64-bit mix of the row number), every fifth null.
std::string DigestOf(int64_t i) {
  uint64_t z = static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return fmt::format("{:016x}", z ^ (z >> 31));
}

// Writes digests (behind a stem) and checks the string column's encoding and that both peers read
// the rows back.
void CheckDigests(std::string_view stem, Encoding expected_encoding) {
  TempDir dir;
  auto path = dir.path() / "digests.parquet";
  constexpr int64_t kRows = 30000;
  Int64Builder ids;
  StringBuilder digests(DataType::String());
  for (int64_t i = 0; i < kRows; ++i) {
    ids.Append(i);
    if (i % 5 == 0) {
      digests.AppendNull();
    } else {
      digests.Append(fmt::format("{}{}", stem, DigestOf(i)));
    }
  }
  std::vector<Field> fields = {F("i", DataType::Int64(), 1), F("d", DataType::String(), 2)};
  std::vector<Array> columns = {*ids.Finish(), *digests.Finish()};
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch batch,
                            RecordBatch::Make(std::make_shared<BatchSchema>(fields), columns));
  // Pages of 256 KiB: the chunk has several, so its first page decides the encoding (a chunk of one
  // page decides on a sample).
  FLOE_ASSERT_OK_AND_ASSIGN(auto options,
                            ParseWriterOptions({{"write.parquet.page-size-bytes", "262144"}}));
  FLOE_ASSERT_OK(WriteFile(path, {batch}, options));
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::OpenPath(path));
  EXPECT_GT(reader->metadata().row_groups.at(0).columns.at(1).meta_data->total_uncompressed_size,
            256 << 10);
  const auto& encodings = reader->metadata().row_groups.at(0).columns.at(1).meta_data->encodings;
  EXPECT_NE(std::ranges::find(encodings, expected_encoding), encodings.end());

  // DuckDB prints BIGINT quoted in JSON, ClickHouse does not.
  auto expected = [&](std::string_view quote) {
    std::string rows;
    for (int64_t i = 0; i < kRows; ++i) {
      std::string d = i % 5 == 0 ? "null" : fmt::format("\"{}{}\"", stem, DigestOf(i));
      rows += fmt::format("{{\"i\":{}{}{},\"d\":{}}}\n", quote, i, quote, d);
    }
    return rows;
  };
  auto duck = RunPeer("duck", "SELECT i, d FROM '" + path.string() + "' ORDER BY i");
  if (!duck) GTEST_SKIP() << "peers not installed (run peers/setup)";
  EXPECT_EQ(*duck, expected("\""));
  auto ch = RunPeer("ch", "SELECT i, d FROM file('" + path.string() +
                              "', Parquet) ORDER BY i FORMAT JSONEachRow");
  EXPECT_EQ(*ch, expected(""));
}

TEST(ParquetWriterIndexes, DigestsUseDeltaLengthByteArrayAndPeersReadThem) {
  CheckDigests("", Encoding::kDeltaLengthByteArray);
}

// A shared stem in front of each value is left out of all values but the first of a page.
TEST(ParquetWriterIndexes, StemmedDigestsUseDeltaByteArrayAndPeersReadThem) {
  CheckDigests("comment ", Encoding::kDeltaByteArray);
}

TEST(ParquetWriterIndexes, BloomFiltersAgreeWithDuckDbAndSkipRowGroups) {
  TempDir dir;
  auto path = dir.path() / "bloom.parquet";
  FLOE_ASSERT_OK_AND_ASSIGN(
      auto options, ParseWriterOptions({{"write.parquet.bloom-filter-enabled.column.id", "true"},
                                        {"write.parquet.bloom-filter-enabled.column.name", "true"},
                                        {"write.parquet.bloom-filter-fpp.column.name", "0.001"}}));
  EXPECT_EQ(options.bloom_filter_columns.at("id"), 0.01);
  EXPECT_EQ(options.bloom_filter_columns.at("name"), 0.001);
  FLOE_ASSERT_OK(WriteFile(path, {IndexedBatch(0, 20000)}, options));
  FLOE_ASSERT_OK_AND_ASSIGN(auto file, FileReader::OpenPath(path));
  const RowGroup& group = file->metadata().row_groups.at(0);
  EXPECT_TRUE(group.columns[0].meta_data->bloom_filter_offset.has_value());
  EXPECT_FALSE(group.columns[1].meta_data->bloom_filter_offset.has_value());
  // The reader's skip decision for an equality inside the min/max range is the bloom filter's:
  // it must match DuckDB's own probe of the same file, never skip a present id (a multiple of 3),
  // and skip most absent ones.
  int64_t absent_skipped = 0;
  for (int64_t v : {0, 3, 29997, 59997, 1, 2, 30001, 30002, 45001, 59996}) {
    ReadOptions read;
    read.predicates = {ColumnPredicate{"id", std::nullopt, ColumnPredicate::Op::kEq, v}};
    FLOE_ASSERT_OK_AND_ASSIGN(auto batches, ParquetBatchReader::OpenPath(path.string(), read));
    FLOE_ASSERT_OK_AND_ASSIGN(auto all, batches->ReadAll());
    bool skipped = batches->row_groups_skipped() == 1;
    if (v % 3 == 0) {
      EXPECT_FALSE(skipped) << v;
    }
    absent_skipped += v % 3 != 0 && skipped;
    auto duck = RunPeer("duck", fmt::format("SELECT bloom_filter_excludes AS x FROM "
                                            "parquet_bloom_probe('{}', 'id', {})",
                                            path.string(), v));
    if (duck) {
      EXPECT_EQ(*duck, fmt::format("{{\"x\":{}}}\n", skipped)) << v;
    }
  }
  EXPECT_GE(absent_skipped, 5);
  auto names = RunPeer("duck", "SELECT bloom_filter_excludes AS x FROM parquet_bloom_probe('" +
                                   path.string() + "', 'name', 'name42')");
  if (names) {
    EXPECT_EQ(*names, "{\"x\":false}\n");
  }
}

}  // namespace
}  // namespace floe::parquet
