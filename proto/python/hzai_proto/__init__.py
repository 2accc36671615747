"""Generated Python code of the hzai.v1 protobuf API (proto/hzai/v1/*.proto).

The files under v1/ are produced by `python -m hzai_proto.generate` and committed;
tests/service/test_generated.py fails when they no longer match the .proto files.
"""
