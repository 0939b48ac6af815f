// graph/utils/type_utils.h — ge::TypeUtils, the graph engine's enum <-> text helpers host files
// use in messages and checks: DataTypeToSerialString ("DT_FLOAT16"), SerialStringToDataType,
// FormatToSerialString ("ND", "NCHW"), SerialStringToFormat, GetDataTypeLength.
// Spellings as CANN's metadef graph/utils/type_utils.h prints them (the enumerator name for
// dtypes; the name without FORMAT_ for formats); unknown values give "UNDEFINED" / DT_UNDEFINED.
#pragma once
#include "../../ascend_sim/dt_macros_set_aside.h"

#include <cstdint>
#include <string>

#include "../types.h"

namespace ge {

class TypeUtils {
  public:
    static std::string DataTypeToSerialString(DataType t) {
        switch (t) {
            case DT_FLOAT: return "DT_FLOAT";
            case DT_FLOAT16: return "DT_FLOAT16";
            case DT_INT8: return "DT_INT8";
            case DT_INT32: return "DT_INT32";
            case DT_UINT8: return "DT_UINT8";
            case DT_INT16: return "DT_INT16";
            case DT_UINT16: return "DT_UINT16";
            case DT_UINT32: return "DT_UINT32";
            case DT_INT64: return "DT_INT64";
            case DT_UINT64: return "DT_UINT64";
            case DT_DOUBLE: return "DT_DOUBLE";
            case DT_BOOL: return "DT_BOOL";
            case DT_STRING: return "DT_STRING";
            case DT_DUAL_SUB_INT8: return "DT_DUAL_SUB_INT8";
            case DT_DUAL_SUB_UINT8: return "DT_DUAL_SUB_UINT8";
            case DT_COMPLEX64: return "DT_COMPLEX64";
            case DT_COMPLEX128: return "DT_COMPLEX128";
            case DT_QINT8: return "DT_QINT8";
            case DT_QINT16: return "DT_QINT16";
            case DT_QINT32: return "DT_QINT32";
            case DT_QUINT8: return "DT_QUINT8";
            case DT_QUINT16: return "DT_QUINT16";
            case DT_RESOURCE: return "DT_RESOURCE";
            case DT_STRING_REF: return "DT_STRING_REF";
            case DT_DUAL: return "DT_DUAL";
            case DT_VARIANT: return "DT_VARIANT";
            case DT_BF16: return "DT_BF16";
            case DT_UNDEFINED: return "DT_UNDEFINED";
            case DT_INT4: return "DT_INT4";
            case DT_UINT1: return "DT_UINT1";
            case DT_INT2: return "DT_INT2";
            case DT_UINT2: return "DT_UINT2";
            case DT_COMPLEX32: return "DT_COMPLEX32";
            case DT_HIFLOAT8: return "DT_HIFLOAT8";
            case DT_FLOAT8_E5M2: return "DT_FLOAT8_E5M2";
            case DT_FLOAT8_E4M3FN: return "DT_FLOAT8_E4M3FN";
            case DT_FLOAT8_E8M0: return "DT_FLOAT8_E8M0";
            case DT_FLOAT6_E3M2: return "DT_FLOAT6_E3M2";
            case DT_FLOAT6_E2M3: return "DT_FLOAT6_E2M3";
            case DT_FLOAT4_E2M1: return "DT_FLOAT4_E2M1";
            case DT_FLOAT4_E1M2: return "DT_FLOAT4_E1M2";
            default: return "UNDEFINED";
        }
    }
    static DataType SerialStringToDataType(const std::string& s) {
        for (int i = 0; i < static_cast<int>(DT_MAX); ++i) {
            if (DataTypeToSerialString(static_cast<DataType>(i)) == s) return static_cast<DataType>(i);
        }
        return DT_UNDEFINED;
    }
    static std::string FormatToSerialString(Format f) {
        switch (f) {
            case FORMAT_NCHW: return "NCHW";
            case FORMAT_NHWC: return "NHWC";
            case FORMAT_ND: return "ND";
            case FORMAT_NC1HWC0: return "NC1HWC0";
            case FORMAT_FRACTAL_Z: return "FRACTAL_Z";
            case FORMAT_NC1C0HWPAD: return "NC1C0HWPAD";
            case FORMAT_NHWC1C0: return "NHWC1C0";
            case FORMAT_FSR_NCHW: return "FSR_NCHW";
            case FORMAT_FRACTAL_DECONV: return "FRACTAL_DECONV";
            case FORMAT_C1HWNC0: return "C1HWNC0";
            case FORMAT_FRACTAL_DECONV_TRANSPOSE: return "FRACTAL_DECONV_TRANSPOSE";
            case FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS: return "FRACTAL_DECONV_SP_STRIDE_TRANS";
            case FORMAT_NC1HWC0_C04: return "NC1HWC0_C04";
            case FORMAT_FRACTAL_Z_C04: return "FRACTAL_Z_C04";
            case FORMAT_CHWN: return "CHWN";
            case FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS: return "FRACTAL_DECONV_SP_STRIDE8_TRANS";
            case FORMAT_HWCN: return "HWCN";
            case FORMAT_NC1KHKWHWC0: return "NC1KHKWHWC0";
            case FORMAT_BN_WEIGHT: return "BN_WEIGHT";
            case FORMAT_FILTER_HWCK: return "FILTER_HWCK";
            case FORMAT_HASHTABLE_LOOKUP_LOOKUPS: return "HASHTABLE_LOOKUP_LOOKUPS";
            case FORMAT_HASHTABLE_LOOKUP_KEYS: return "HASHTABLE_LOOKUP_KEYS";
            case FORMAT_HASHTABLE_LOOKUP_VALUE: return "HASHTABLE_LOOKUP_VALUE";
            case FORMAT_HASHTABLE_LOOKUP_OUTPUT: return "HASHTABLE_LOOKUP_OUTPUT";
            case FORMAT_HASHTABLE_LOOKUP_HITS: return "HASHTABLE_LOOKUP_HITS";
            case FORMAT_C1HWNCoC0: return "C1HWNCoC0";
            case FORMAT_MD: return "MD";
            case FORMAT_NDHWC: return "NDHWC";
            case FORMAT_FRACTAL_ZZ: return "FRACTAL_ZZ";
            case FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
            case FORMAT_NCDHW: return "NCDHW";
            case FORMAT_DHWCN: return "DHWCN";
            case FORMAT_NDC1HWC0: return "NDC1HWC0";
            case FORMAT_FRACTAL_Z_3D: return "FRACTAL_Z_3D";
            case FORMAT_CN: return "CN";
            case FORMAT_NC: return "NC";
            case FORMAT_DHWNC: return "DHWNC";
            case FORMAT_FRACTAL_Z_3D_TRANSPOSE: return "FRACTAL_Z_3D_TRANSPOSE";
            case FORMAT_FRACTAL_ZN_LSTM: return "FRACTAL_ZN_LSTM";
            case FORMAT_FRACTAL_Z_G: return "FRACTAL_Z_G";
            case FORMAT_RESERVED: return "RESERVED";
            case FORMAT_ALL: return "ALL";
            case FORMAT_NULL: return "NULL";
            case FORMAT_ND_RNN_BIAS: return "ND_RNN_BIAS";
            case FORMAT_FRACTAL_ZN_RNN: return "FRACTAL_ZN_RNN";
            case FORMAT_NYUV: return "NYUV";
            case FORMAT_NYUV_A: return "NYUV_A";
            case FORMAT_NCL: return "NCL";
            case FORMAT_FRACTAL_Z_WINO: return "FRACTAL_Z_WINO";
            case FORMAT_C1HWC0: return "C1HWC0";
            default: return "RESERVED";
        }
    }
    static Format SerialStringToFormat(const std::string& s) {
        for (int i = 0; i < static_cast<int>(FORMAT_END); ++i) {
            if (FormatToSerialString(static_cast<Format>(i)) == s) return static_cast<Format>(i);
        }
        return FORMAT_RESERVED;
    }
    // Bytes per element; false for types without a whole-byte size.
    static bool GetDataTypeLength(DataType t, uint32_t& length) {
        const int n = GetSizeByDataType(t);
        if (n <= 0) return false;
        length = static_cast<uint32_t>(n);
        return true;
    }
};

}  // namespace ge
#include "../../ascend_sim/dt_macros_restore.h"
