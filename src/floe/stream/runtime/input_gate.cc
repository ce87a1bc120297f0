#include <algorithm>
#include <utility>

#include "floe/stream/runtime/input_gate_internal.h"

namespace floe::stream::runtime {

InputGate::InputGate(int num_channels, int capacity)
    : queues_(static_cast<size_t>(num_channels)), capacity_(capacity) {}

Status InputGate::Push(int channel, StreamElement element) {
  std::unique_lock lock(mutex_);
  std::deque<StreamElement>& queue = queues_[channel];
  producer_cv_.wait(lock, [&] { return cancelled_ || std::ssize(queue) < capacity_; });
  if (cancelled_) return Cancelled("the job is being cancelled");
  queue.push_back(std::move(element));
  max_queued_ = std::max(max_queued_, static_cast<int>(queue.size()));
  // The consumer only waits while every channel it reads is empty: waking it for a channel that
  // already held data (or that it does not read now) costs a context switch for nothing.
  if (queue.size() == 1) consumer_cv_.notify_one();
  return {};
}

void InputGate::PostMail(Mail mail) {
  std::lock_guard lock(mutex_);
  mail_.push_back(std::move(mail));
  consumer_cv_.notify_one();
}

void InputGate::Cancel() {
  std::lock_guard lock(mutex_);
  cancelled_ = true;
  consumer_cv_.notify_all();
  producer_cv_.notify_all();
}

bool InputGate::Ready(const std::vector<bool>& blocked) const {
  if (cancelled_ || !mail_.empty()) return true;
  for (size_t i = 0; i < queues_.size(); ++i) {
    if (!blocked[i] && !queues_[i].empty()) return true;
  }
  return false;
}

Result<InputGate::Next> InputGate::Take(const std::vector<bool>& blocked,
                                        std::optional<std::chrono::milliseconds> timeout) {
  std::unique_lock lock(mutex_);
  auto ready = [&] { return Ready(blocked); };
  if (timeout) {
    if (!consumer_cv_.wait_for(lock, *timeout, ready)) return Next{};
  } else {
    consumer_cv_.wait(lock, ready);
  }
  if (cancelled_) return Cancelled("the job is being cancelled");
  Next next;
  if (!mail_.empty()) {
    next.mail = std::move(mail_.front());
    mail_.pop_front();
    return next;
  }
  int n = num_channels();
  for (int k = 0; k < n; ++k) {
    int channel = (next_channel_ + k) % n;
    if (blocked[channel] || queues_[channel].empty()) continue;
    next.channel = channel;
    next.element = std::move(queues_[channel].front());
    queues_[channel].pop_front();
    next_channel_ = (channel + 1) % n;
    // Only a sender of a full channel waits.
    if (std::ssize(queues_[channel]) == capacity_ - 1) producer_cv_.notify_all();
    return next;
  }
  return InternalError("input gate woke up with nothing to take");
}

int InputGate::max_queued() const {
  std::lock_guard lock(mutex_);
  return max_queued_;
}

}  // namespace floe::stream::runtime
