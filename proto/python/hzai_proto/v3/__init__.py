"""hzai.v3 messages and service stubs (generated; see hzai_proto.generate)."""
