import { runServer } from '@portal/server-kit';
import { buildApp } from './app';
import { loadGatewayConfig } from './config';

const config = loadGatewayConfig();
void runServer(buildApp(config), config.host, config.port, config.serviceName);
