"""Generated Python code of the hzai.v2 protobuf API (proto/hzai/v2/*.proto).

The files under v2/ are produced by `python -m hzai_proto.generate` and committed;
tests/service/test_generated.py fails when they no longer match the .proto files.
"""
