// Manifest decoding speed, the heart of scan planning: a 100,000-entry manifest with statistics
// and bounds for 20 columns, decoded entry by entry into a reused ManifestEntry on one core.

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "floe/manifest/manifest_reader.h"
#include "floe/manifest/manifest_writer.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"

namespace floe::manifest {
namespace {

constexpr int kEntries = 100'000;
constexpr int kColumns = 20;

std::string BuildManifest(avro::AvroCodec codec) {
  std::vector<NestedField> fields;
  for (int c = 1; c <= kColumns; ++c) {
    TypeId id = c % 4 == 0 ? TypeId::kString : (c % 4 == 1 ? TypeId::kLong : TypeId::kInt);
    if (c == 2) id = TypeId::kTimestampTz;
    fields.push_back({.id = c, .name = "c" + std::to_string(c), .type = PrimitiveType::Get(id)});
  }
  auto schema = *Schema::Make(fields);
  auto spec = *PartitionSpec::Make(
      *schema, 0,
      {{.source_ids = {2}, .field_id = 1000, .name = "c2_day", .transform = Transform::Day()},
       {.source_ids = {1},
        .field_id = 1001,
        .name = "c1_bucket",
        .transform = Transform::Bucket(16)}});
  std::string out;
  ManifestWriterOptions options;
  options.codec = codec;
  options.snapshot_id = 1;
  auto writer = *ManifestWriter::Open(
      [&out](std::span<const std::byte> b) {
        out.append(reinterpret_cast<const char*>(b.data()), b.size());
        return Ok();
      },
      "bench.avro", *schema, *spec, options);
  for (int i = 0; i < kEntries; ++i) {
    ManifestEntry e;
    e.snapshot_id = 1;
    DataFile& f = e.data_file;
    f.file_path = "s3://warehouse/db/events/data/c2_day=2026-01-01/00000-" + std::to_string(i) +
                  "-4f5e6a7b-8c9d-0e1f-2a3b-4c5d6e7f8a9b.parquet";
    f.file_format = "parquet";
    f.partition = {Literal::Date(20000 + i % 365), Literal::Int(i % 16)};
    f.record_count = 100'000 + i;
    f.file_size_in_bytes = 64 << 20;
    for (int c = 1; c <= kColumns; ++c) {
      f.column_sizes.emplace_back(c, 100'000 + c * 997 + i);
      f.value_counts.emplace_back(c, f.record_count);
      f.null_value_counts.emplace_back(c, i % 7);
      std::string lower, upper;
      if (c % 4 == 0) {
        lower = "aaaa" + std::to_string(i % 1000);
        upper = "zzzz" + std::to_string(i % 1000);
      } else if (c % 4 == 1 || c == 2) {
        lower = *Literal::Long(int64_t{i} * 1000).ToBinary();
        upper = *Literal::Long(int64_t{i} * 1000 + 999).ToBinary();
      } else {
        lower = *Literal::Int(i).ToBinary();
        upper = *Literal::Int(i + 999).ToBinary();
      }
      f.lower_bounds.emplace_back(c, std::move(lower));
      f.upper_bounds.emplace_back(c, std::move(upper));
    }
    f.split_offsets = {4, 1 << 20};
    f.sort_order_id = 0;
    if (!writer->Add(e)) std::abort();
  }
  if (!writer->Close()) std::abort();
  return out;
}

void DecodeManifest(benchmark::State& state, avro::AvroCodec codec) {
  static const std::string deflated = BuildManifest(avro::AvroCodec::kDeflate);
  static const std::string plain = BuildManifest(avro::AvroCodec::kNull);
  const std::string& bytes = codec == avro::AvroCodec::kDeflate ? deflated : plain;
  ManifestFile listed;
  listed.sequence_number = 5;
  listed.added_snapshot_id = 1;
  int64_t entries = 0;
  for (auto _ : state) {
    auto reader = *ManifestReader::Open(std::as_bytes(std::span(bytes)), "bench", &listed);
    ManifestEntry entry;
    while (*reader->Next(entry)) ++entries;
    benchmark::DoNotOptimize(entry);
  }
  if (entries != kEntries * state.iterations()) std::abort();
  state.SetItemsProcessed(entries);
  state.SetBytesProcessed(static_cast<int64_t>(bytes.size()) * state.iterations());
  state.counters["file_bytes"] = static_cast<double>(bytes.size());
}

void BM_DecodeManifestDeflate(benchmark::State& state) {
  DecodeManifest(state, avro::AvroCodec::kDeflate);
}
void BM_DecodeManifestUncompressed(benchmark::State& state) {
  DecodeManifest(state, avro::AvroCodec::kNull);
}
BENCHMARK(BM_DecodeManifestDeflate)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DecodeManifestUncompressed)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace floe::manifest
