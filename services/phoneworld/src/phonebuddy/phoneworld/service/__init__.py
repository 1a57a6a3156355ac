"""PhoneWorld as a service: devices leased and driven over NATS, with health and metrics."""
