"""Small constants, importable without grpc (the hzai command line loads this quickly)."""

DEFAULT_TARGET = "127.0.0.1:50051"
