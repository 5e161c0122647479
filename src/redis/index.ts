export type { CappedIncrement, Store } from '../store/store';
export { StoreListError } from '../store/store-list-error';
export {
  type IORedisLike,
  type NodeRedisLike,
  type RedisClientLike,
  type RedisStoreOptions,
  redisStore,
  StoreTimeoutError,
  type UpstashRedisLike,
} from './redis-store';
