// ascend_sim: the sorting APIs of the vector core as the Atlas A2 (910B, "V220") library exposes
// them — Concat, Sort<T, isFullSort>, Extract, MrgSort (both signatures) and GetSortLen /
// GetSortOffset. Layout (CANN docs, Atlas A2): each sorted element is an 8-byte (score, index)
// structure, the score of type T in the low bytes (half: 2 reserved bytes follow), the uint32
// index in the high 4 bytes; order is descending by score, ties keep the input order (Sort) or
// the list order (MrgSort). Sort and Extract handle 32 elements per repeat, Concat 16 (on A2 it
// is a plain copy). The region-proposal layout of the Atlas inference products (MrgSort4,
// ProposalConcat / ProposalExtract) is not emulated.
#pragma once

#include <algorithm>
#include <cstring>
#include <vector>

#include "adv_api.h"

namespace AscendC {

template <typename T>
struct MrgSortSrcList {
    __aicore__ MrgSortSrcList() {}
    __aicore__ MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In, const LocalTensor<T>& src3In,
                              const LocalTensor<T>& src4In)
        : src1(src1In), src2(src2In), src3(src3In), src4(src4In) {}
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;
};

struct MrgSort4Info {
    __aicore__ MrgSort4Info() {}
    __aicore__ MrgSort4Info(const uint16_t elementLengthsIn[4], const bool ifExhaustedSuspensionIn,
                            const uint16_t validBitIn, const uint16_t repeatTimesIn)
        : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes(repeatTimesIn) {
        for (int i = 0; i < 4; ++i) elementLengths[i] = elementLengthsIn[i];
    }
    uint16_t elementLengths[4] = {0, 0, 0, 0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint16_t repeatTimes = 1;
};

// Length (in elements of T) of elemCount sorted (score, index) structures, and the element
// offset of structure elemOffset.
template <typename T>
__aicore__ inline uint32_t GetSortLen(const uint32_t elemCount) {
    return elemCount * 8u / sizeof(T);
}
template <typename T>
__aicore__ inline uint32_t GetSortOffset(const uint32_t elemOffset) {
    return elemOffset * 8u / sizeof(T);
}

namespace sim {

constexpr uint32_t SORT_STRUCT = 8;  // bytes of one (score, index) structure

template <typename T>
inline void sort_put(uint8_t* p, float score, uint32_t idx) {
    std::memset(p, 0, SORT_STRUCT);
    adv_store<T>(p, score);
    std::memcpy(p + 4, &idx, 4);
}
struct SortItem {
    float score;
    uint32_t idx;
};
template <typename T>
inline SortItem sort_get(const uint8_t* p) {
    SortItem s{adv_load<T>(p), 0};
    std::memcpy(&s.idx, p + 4, 4);
    return s;
}

inline void sort_repeats(int32_t repeatTimes, const char* api, const SrcLoc& loc) {
    if (repeatTimes < 0 || repeatTimes > 255) {
        fail("BAD_PARAM", api, loc, "repeatTimes is %d; the value must be in [0, 255]", repeatTimes);
    }
}

// sort cost: one 32-element sort per repeat, then log4(regions) merge passes (msKPP vmrgsort:
// 22 start-up, 16 per repeat) [model]
inline uint64_t sort_cycles(uint64_t regions, bool merge) {
    uint64_t passes = 0;
    if (merge)
        for (uint64_t w = 1; w < regions; w *= 4) ++passes;
    return regions * 16 + passes * (22 + regions * 16 / 4);
}

template <typename T>
inline void sort_run(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index,
                     const LocalTensor<T>& tmp, int32_t repeatTimes, bool full, const SrcLoc& loc) {
    static_assert(OneOf<T, half, float>::value, "Failed to check dtype in Sort, current api support dtype is half / float");
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("Sort", loc);
    sort_repeats(repeatTimes, "Sort", loc);
    const uint64_t n = static_cast<uint64_t>(repeatTimes) * 32;
    LocalView d = view(dst, "Sort", "dstLocal (LocalTensor)", loc);
    LocalView s = view(concat, "Sort", "concatLocal (LocalTensor)", loc);
    LocalView ix = view(index, "Sort", "indexLocal (LocalTensor)", loc);
    LocalView t = view(tmp, "Sort", "tmpLocal (LocalTensor)", loc);
    need(d, n * SORT_STRUCT, "Sort", "dstLocal (LocalTensor)", loc);
    need(s, n * sizeof(T), "Sort", "concatLocal (LocalTensor)", loc);
    need(ix, n * 4, "Sort", "indexLocal (LocalTensor)", loc);
    if (full && t.extent < n * SORT_STRUCT) {
        fail("LOCAL_OOB", "Sort", loc,
             "tmpLocal holds %llu bytes; a full sort of %llu elements (repeatTimes %d x 32) needs at least %llu "
             "(GetSortTmpSize)",
             static_cast<unsigned long long>(t.extent), static_cast<unsigned long long>(n), repeatTimes,
             static_cast<unsigned long long>(n * SORT_STRUCT));
    }
    check_init(s, 0, n * sizeof(T), "Sort", "concatLocal (LocalTensor)", loc);
    check_init(ix, 0, n * 4, "Sort", "indexLocal (LocalTensor)", loc);
    std::vector<SortItem> items(n);
    for (uint64_t i = 0; i < n; ++i) {
        items[i].score = adv_load<T>(s.data + i * sizeof(T));
        std::memcpy(&items[i].idx, ix.data + i * 4, 4);
    }
    const auto desc = [](const SortItem& a, const SortItem& b) ASCEND_SIM_NOINSTR { return a.score > b.score; };
    if (full) {
        std::stable_sort(items.begin(), items.end(), desc);
    } else {
        for (uint64_t r = 0; r < n; r += 32) std::stable_sort(items.begin() + r, items.begin() + r + 32, desc);
    }
    for (uint64_t i = 0; i < n; ++i) sort_put<T>(d.data + i * SORT_STRUCT, items[i].score, items[i].idx);
    mark_written(d, 0, n * SORT_STRUCT);
    if (full) mark_written(t, 0, std::min<uint64_t>(t.extent, n * SORT_STRUCT));
    charge(c, Pipe::V, sort_cycles(repeatTimes, full), "Sort", loc,
           {{s.blk, false}, {ix.blk, false}, {d.blk, true}, {full ? t.blk : nullptr, true}});
}

template <typename T>
inline void concat_run(const LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp,
                       int32_t repeatTimes, const SrcLoc& loc) {
    static_assert(OneOf<T, half, float>::value, "Failed to check dtype in Concat, current api support dtype is half / float");
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("Concat", loc);
    (void)tmp;  // GetConcatTmpSize is 0 on Atlas A2
    sort_repeats(repeatTimes, "Concat", loc);
    const uint64_t bytes = static_cast<uint64_t>(repeatTimes) * 16 * sizeof(T);
    LocalView d = view(concat, "Concat", "concatLocal (LocalTensor)", loc);
    LocalView s = view(src, "Concat", "srcLocal (LocalTensor)", loc);
    need(d, bytes, "Concat", "concatLocal (LocalTensor)", loc);
    need(s, bytes, "Concat", "srcLocal (LocalTensor)", loc);
    check_init(s, 0, bytes, "Concat", "srcLocal (LocalTensor)", loc);
    if (d.data != s.data) std::memmove(d.data, s.data, bytes);
    mark_written(d, 0, bytes);
    charge(c, Pipe::V, vec_cycles(c, VecClass::COPY, 4, l2_repeats(bytes / 4, 4)), "Concat", loc,
           {{s.blk, false}, {d.blk, true}});
}

template <typename T>
inline void extract_run(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex,
                        const LocalTensor<T>& sorted, int32_t repeatTimes, const SrcLoc& loc) {
    static_assert(OneOf<T, half, float>::value, "Failed to check dtype in Extract, current api support dtype is half / float");
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("Extract", loc);
    sort_repeats(repeatTimes, "Extract", loc);
    const uint64_t n = static_cast<uint64_t>(repeatTimes) * 32;
    LocalView dv = view(dstValue, "Extract", "dstValueLocal (LocalTensor)", loc);
    LocalView di = view(dstIndex, "Extract", "dstIndexLocal (LocalTensor)", loc);
    LocalView s = view(sorted, "Extract", "sortedLocal (LocalTensor)", loc);
    need(dv, n * sizeof(T), "Extract", "dstValueLocal (LocalTensor)", loc);
    need(di, n * 4, "Extract", "dstIndexLocal (LocalTensor)", loc);
    need(s, n * SORT_STRUCT, "Extract", "sortedLocal (LocalTensor)", loc);
    check_init(s, 0, n * SORT_STRUCT, "Extract", "sortedLocal (LocalTensor)", loc);
    std::vector<SortItem> items(n);
    for (uint64_t i = 0; i < n; ++i) items[i] = sort_get<T>(s.data + i * SORT_STRUCT);
    for (uint64_t i = 0; i < n; ++i) {
        adv_store<T>(dv.data + i * sizeof(T), items[i].score);
        std::memcpy(di.data + i * 4, &items[i].idx, 4);
    }
    mark_written(dv, 0, n * sizeof(T));
    mark_written(di, 0, n * 4);
    charge(c, Pipe::V, 2 * vec_cycles(c, VecClass::COPY, 4, l2_repeats(n * 2, 4)), "Extract", loc,
           {{s.blk, false}, {dv.blk, true}, {di.blk, true}});
}

template <typename T>
inline void mrgsort_run(const LocalTensor<T>& dst, const MrgSortSrcList<T>& list, const uint16_t counts[4],
                        uint32_t* sortedNum, uint16_t validBit, int32_t repeatTimes, bool exhausted, const SrcLoc& loc) {
    static_assert(OneOf<T, half, float>::value, "Failed to check dtype in MrgSort, current api support dtype is half / float");
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("MrgSort", loc);
    int nlists = 0;
    if (validBit == 0x3) nlists = 2;
    else if (validBit == 0x7) nlists = 3;
    else if (validBit == 0xF) nlists = 4;
    else fail("BAD_PARAM", "MrgSort", loc, "validBit is %u; it must be 3, 7 or 15 (2 to 4 lists, the lowest bits set)", validBit);
    if (repeatTimes != 1) {
        fail("BAD_PARAM", "MrgSort", loc,
             "repeatTimes is %d; ascend_sim emulates MrgSort with repeatTimes 1 only (merge once per call)", repeatTimes);
    }
    const LocalTensor<T>* srcs[4] = {&list.src1, &list.src2, &list.src3, &list.src4};
    static const char* roles[4] = {"sortList.src1 (LocalTensor)", "sortList.src2 (LocalTensor)",
                                   "sortList.src3 (LocalTensor)", "sortList.src4 (LocalTensor)"};
    LocalView v[4] = {};
    uint64_t total = 0;
    for (int q = 0; q < nlists; ++q) {
        if (counts[q] > 4095) {
            fail("BAD_PARAM", "MrgSort", loc, "elementCountList[%d] is %u; each list holds at most 4095 structures", q,
                 counts[q]);
        }
        v[q] = view(*srcs[q], "MrgSort", roles[q], loc, 8);
        need(v[q], static_cast<uint64_t>(counts[q]) * SORT_STRUCT, "MrgSort", roles[q], loc);
        check_init(v[q], 0, static_cast<uint64_t>(counts[q]) * SORT_STRUCT, "MrgSort", roles[q], loc);
        total += counts[q];
    }
    LocalView d = view(dst, "MrgSort", "dstLocal (LocalTensor)", loc);
    need(d, total * SORT_STRUCT, "MrgSort", "dstLocal (LocalTensor)", loc);
    std::vector<std::vector<SortItem>> in(nlists);
    for (int q = 0; q < nlists; ++q) {
        in[q].resize(counts[q]);
        for (uint32_t i = 0; i < counts[q]; ++i) in[q][i] = sort_get<T>(v[q].data + static_cast<uint64_t>(i) * SORT_STRUCT);
        for (uint32_t i = 1; i < counts[q]; ++i) {
            if (in[q][i].score > in[q][i - 1].score) {
                fail("BAD_PARAM", "MrgSort", loc,
                     "sortList.src%d is not sorted in descending order (structure %u scores %g after %g): sort each "
                     "list first (Sort)",
                     q + 1, i, static_cast<double>(in[q][i].score), static_cast<double>(in[q][i - 1].score));
            }
        }
    }
    uint32_t pos[4] = {0, 0, 0, 0};
    std::vector<SortItem> out;
    out.reserve(total);
    while (true) {
        int best = -1;
        bool any_exhausted = false;
        for (int q = 0; q < nlists; ++q) {
            if (pos[q] >= counts[q]) {
                any_exhausted = true;
                continue;
            }
            if (best < 0 || in[q][pos[q]].score > in[best][pos[best]].score) best = q;  // ties: lower list first
        }
        if (best < 0 || (exhausted && any_exhausted)) break;
        out.push_back(in[best][pos[best]++]);
    }
    for (size_t i = 0; i < out.size(); ++i) sort_put<T>(d.data + i * SORT_STRUCT, out[i].score, out[i].idx);
    mark_written(d, 0, out.size() * SORT_STRUCT);
    if (sortedNum)
        for (int q = 0; q < 4; ++q) sortedNum[q] = q < nlists ? pos[q] : 0;
    charge(c, Pipe::V, 22 + (total + 31) / 32 * 16, "MrgSort", loc,
           {{v[0].blk, false}, {v[1].blk, false}, {v[2].blk, false}, {v[3].blk, false}, {d.blk, true}});
}

}  // namespace sim

template <typename T>
__aicore__ inline void Concat(LocalTensor<T>& concatLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& tmpLocal,
                              const int32_t repeatTimes, ASCEND_SIM_LOC) {
    if (sim::core_is_aic()) return;
    sim::concat_run<T>(concatLocal, srcLocal, tmpLocal, repeatTimes, loc);
}

template <typename T, bool isFullSort>
__aicore__ inline void Sort(const LocalTensor<T>& dstLocal, const LocalTensor<T>& concatLocal,
                            const LocalTensor<uint32_t>& indexLocal, LocalTensor<T>& tmpLocal, const int32_t repeatTimes,
                            ASCEND_SIM_LOC) {
    if (sim::core_is_aic()) return;
    sim::sort_run<T>(dstLocal, concatLocal, indexLocal, tmpLocal, repeatTimes, isFullSort, loc);
}

template <typename T>
__aicore__ inline void Extract(const LocalTensor<T>& dstValueLocal, const LocalTensor<uint32_t>& dstIndexLocal,
                               const LocalTensor<T>& sortedLocal, const int32_t repeatTimes, ASCEND_SIM_LOC) {
    if (sim::core_is_aic()) return;
    sim::extract_run<T>(dstValueLocal, dstIndexLocal, sortedLocal, repeatTimes, loc);
}

template <typename T, bool isExhaustedSuspension = false>
__aicore__ inline void MrgSort(const LocalTensor<T>& dstLocal, const MrgSortSrcList<T>& sortList,
                               const uint16_t elementCountList[4], uint32_t sortedNum[4], uint16_t validBit,
                               const int32_t repeatTimes, ASCEND_SIM_LOC) {
    if (sim::core_is_aic()) return;
    sim::mrgsort_run<T>(dstLocal, sortList, elementCountList, sortedNum, validBit, repeatTimes, isExhaustedSuspension, loc);
}

template <typename T>
__aicore__ inline void MrgSort(const LocalTensor<T>& dstLocal, const MrgSortSrcList<T>& sortList,
                               const MrgSort4Info& params, ASCEND_SIM_LOC) {
    if (sim::core_is_aic()) return;
    sim::mrgsort_run<T>(dstLocal, sortList, params.elementLengths, nullptr, params.validBit, params.repeatTimes,
                        params.ifExhaustedSuspension, loc);
}

}  // namespace AscendC
