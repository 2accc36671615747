"""hzai.v2 messages and service stubs (generated; see hzai_proto.generate)."""
