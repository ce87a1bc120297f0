#include "floe/stream/collect_sink.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "floe/batch/value.h"
#include "floe/stream/collection_source.h"
#include "floe/testing/testing.h"

namespace floe::stream {
namespace {

// Expected lines follow Flink's Row.toString: "+I[...]" with Java's toString of each field
// (LocalDate "2017-11-16", BigDecimal "14.20", Double "1.5", null "null").
TEST(FormatRowTest, WritesFlinksRowText) {
  auto schema =
      std::make_shared<BatchSchema>(std::vector<Field>{{"id", DataType::Int64()},
                                                       {"name", DataType::String()},
                                                       {"day", DataType::Date32()},
                                                       {"price", DataType::Decimal128(4, 2)},
                                                       {"ratio", DataType::Float64()},
                                                       {"ok", DataType::Bool()}});
  std::vector<Value> id = {int64_t{1}, Value()};
  std::vector<Value> name = {"a b", Value()};
  std::vector<Value> day = {DateValue{17486}, Value()};
  std::vector<Value> price = {DecimalValue{1420, 4, 2}, Value()};
  std::vector<Value> ratio = {1.5, Value()};
  std::vector<Value> ok = {true, Value()};
  std::vector<Array> columns;
  for (int i = 0; i < schema->num_fields(); ++i) {
    const std::vector<Value>* values[] = {&id, &name, &day, &price, &ratio, &ok};
    FLOE_ASSERT_OK_AND_ASSIGN(Array array, MakeArray(schema->field(i).type, *values[i]));
    columns.push_back(array);
  }
  FLOE_ASSERT_OK_AND_ASSIGN(RecordBatch batch, RecordBatch::Make(schema, columns));
  std::vector<RowKind> kinds = {RowKind::kUpdateAfter, RowKind::kDelete};
  FLOE_ASSERT_OK_AND_ASSIGN(batch, batch.WithRowKinds(Buffer::CopyOf(kinds.data(), 2)));
  EXPECT_EQ(FormatRow(batch, 0), "+U[1, a b, 2017-11-16, 14.20, 1.5, true]");
  EXPECT_EQ(FormatRow(batch, 1), "-D[null, null, null, null, null, null]");

  CollectedBatches collected;
  collected.Add(batch);
  collected.Add(batch.Slice(0, 1));
  EXPECT_EQ(collected.num_rows(), 3);
  EXPECT_EQ(collected.RowLines(),
            (std::vector<std::string>{"+U[1, a b, 2017-11-16, 14.20, 1.5, true]",
                                      "-D[null, null, null, null, null, null]",
                                      "+U[1, a b, 2017-11-16, 14.20, 1.5, true]"}));
}

TEST(PrintSinkTest, PrintsEveryRowOnce) {
  auto schema = std::make_shared<BatchSchema>(std::vector<Field>{{"s", DataType::String()}});
  std::vector<RecordBatch> batches;
  for (const char* word : {"x", "y", "z"}) {
    std::vector<Value> values = {word};
    batches.push_back(*RecordBatch::Make(schema, {*MakeArray(DataType::String(), values)}));
  }
  StreamEnvironment env({.parallelism = 3});
  std::ostringstream out;
  PrintTo(env.FromSource(std::make_shared<CollectionSource>(schema, batches), "words"), "print",
          out);
  FLOE_ASSERT_OK(env.Execute("print"));
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<std::string>{"+I[x]", "+I[y]", "+I[z]"}));
}

}  // namespace
}  // namespace floe::stream
