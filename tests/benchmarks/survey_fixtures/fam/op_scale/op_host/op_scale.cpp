// Survey fixture: the OpDef part of op_host that the survey reads dtypes from (never compiled).
namespace ops {
class OpScale : public OpDef {
public:
    explicit OpScale(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    }
};
}
