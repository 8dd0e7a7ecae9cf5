import { Initial1763700000000 } from './1763700000000-Initial';
import { ServicesAdmin1763800000000 } from './1763800000000-ServicesAdmin';
import { Geo1763900000000 } from './1763900000000-Geo';
import { Requests1764000000000 } from './1764000000000-Requests';
import { UserPages1764100000000 } from './1764100000000-UserPages';
import { GroupListRevision1764200000000 } from './1764200000000-GroupListRevision';
import { RequestQueue1764300000000 } from './1764300000000-RequestQueue';
import { ConsoleJobs1764310000000 } from './1764310000000-ConsoleJobs';
import { RequestPagerTotals1764320000000 } from './1764320000000-RequestPagerTotals';
import { RiskLayers1764400000000 } from './1764400000000-RiskLayers';
import { IrisReports1764410000000 } from './1764410000000-IrisReports';
import { ReportBuilder1764500000000 } from './1764500000000-ReportBuilder';
import { ReportImages1764510000000 } from './1764510000000-ReportImages';
import { AvsEditor1764600000000 } from './1764600000000-AvsEditor';
import { ImagerySurveys1764700000000 } from './1764700000000-ImagerySurveys';
import { IrisAerialSurvey1764736000000 } from './1764736000000-IrisAerialSurvey';
import { ApiKeys1764800000000 } from './1764800000000-ApiKeys';
import { PeopleTotals1764800000001 } from './1764800000001-PeopleTotals';
import { UsageMetering1764810000000 } from './1764810000000-UsageMetering';
import { Webhooks1764820000000 } from './1764820000000-Webhooks';
import { Notifications1764830000000 } from './1764830000000-Notifications';
import { InsightIndexes1764840000000 } from './1764840000000-InsightIndexes';
import { InsightCreatedIndex1764850000000 } from './1764850000000-InsightCreatedIndex';
import { RequestDeliveredIndex1764860000000 } from './1764860000000-RequestDeliveredIndex';
import { InsightRollup1764870000000 } from './1764870000000-InsightRollup';
import { InsightRollupMonths1764875000000 } from './1764875000000-InsightRollupMonths';
import { InsightRollupDeferred1764876000000 } from './1764876000000-InsightRollupDeferred';
import { InsightLateGroupIndex1764877000000 } from './1764877000000-InsightLateGroupIndex';
import { InsightRollupGroupRows1764878000000 } from './1764878000000-InsightRollupGroupRows';
import { StreetsTrigramIndex1764880000000 } from './1764880000000-StreetsTrigramIndex';

/** Migrations in the order they run, as classes (no globs: works from TypeScript sources and from dist/). */
export const MIGRATIONS = [
  Initial1763700000000,
  ServicesAdmin1763800000000,
  Geo1763900000000,
  Requests1764000000000,
  UserPages1764100000000,
  GroupListRevision1764200000000,
  RequestQueue1764300000000,
  ConsoleJobs1764310000000,
  RequestPagerTotals1764320000000,
  RiskLayers1764400000000,
  IrisReports1764410000000,
  ReportBuilder1764500000000,
  ReportImages1764510000000,
  AvsEditor1764600000000,
  ImagerySurveys1764700000000,
  IrisAerialSurvey1764736000000,
  ApiKeys1764800000000,
  PeopleTotals1764800000001,
  UsageMetering1764810000000,
  Webhooks1764820000000,
  Notifications1764830000000,
  InsightIndexes1764840000000,
  InsightCreatedIndex1764850000000,
  RequestDeliveredIndex1764860000000,
  InsightRollup1764870000000,
  InsightRollupMonths1764875000000,
  InsightRollupDeferred1764876000000,
  InsightLateGroupIndex1764877000000,
  InsightRollupGroupRows1764878000000,
  StreetsTrigramIndex1764880000000,
];
