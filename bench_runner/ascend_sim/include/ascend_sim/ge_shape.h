// ascend_sim: ge::Shape, the shape type CANN's host-side helpers take (adv-API tiling helpers,
// the graph API's check-support callbacks). One definition, included where it is needed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace ge {
class Shape {
  public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    std::vector<int64_t> GetDims() const { return dims_; }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }

  private:
    std::vector<int64_t> dims_;
};
}  // namespace ge
